#!/usr/bin/env node
// Builds the multimodal addon (llama.cpp's mtmd around node-llama-cpp's prebuilt libraries).
// Usage: node native/build-addon.mjs [--install]
//   --install: as the package's install script: a failure prints why and exits 0, so that
//   `npm install` succeeds; the server then builds again on first need and reports the error.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { withBuildLock } from "./build-steps/build-lock.mjs";
import { compileAll, linkAddon, translationUnits } from "./build-steps/compile.mjs";
import { extractSources } from "./build-steps/extract-sources.mjs";
import { installedVariants, nodeLlamaCppDir, sourceBundle } from "./build-steps/llama-packages.mjs";

const nativeDir = dirname(fileURLToPath(import.meta.url));
const packageDir = dirname(nativeDir);
const buildDir = join(nativeDir, "build");
const log = (line) => process.stderr.write(`llmsrv native: ${line}\n`);

/**
 * Node-API's C headers: the node-api-headers package (any Node version: the addon uses only
 * Node-API 8, so one binary serves Node 20, 22 and 24), else those beside the node binary.
 */
function nodeInclude(require) {
  const candidates = [
    require("node-api-headers").include_dir,
    join(dirname(process.execPath), "..", "include", "node"),
    "/usr/include/node",
  ];
  const found = candidates.find((d) => existsSync(join(d, "node_api.h")));
  if (!found)
    throw new Error(`Node's headers (node_api.h) not found in ${candidates.join(" or ")}`);
  return found;
}

/** Checks that a built addon loads with every symbol resolved, in a child process. */
function verify(file) {
  execFileSync(process.execPath, ["-e", `require(${JSON.stringify(file)})`], {
    env: { ...process.env, LD_BIND_NOW: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

async function build() {
  const started = Date.now();
  const llamaDir = nodeLlamaCppDir(packageDir);
  const variants = installedVariants(llamaDir);
  if (variants.length === 0) {
    throw new Error(
      `no prebuilt llama.cpp libraries for ${process.platform}-${process.arch} in node-llama-cpp's packages`,
    );
  }
  mkdirSync(buildDir, { recursive: true });
  const llamaSrc = extractSources(sourceBundle(llamaDir), buildDir);
  const require = createRequire(join(packageDir, "package.json"));
  const units = translationUnits({
    llamaSrc,
    addonSrc: join(nativeDir, "src"),
    objDir: join(buildDir, "obj"),
    nodeInclude: nodeInclude(require),
    addonApiInclude: require("node-addon-api").include_dir,
  });
  const compiled = await compileAll(units, join(nativeDir, "src"), log);
  for (const variant of variants) {
    const dir = join(buildDir, variant.variant);
    const file = join(dir, "mtmd-addon.node");
    const newest = Math.max(...units.map((u) => statSync(u.obj).mtimeMs));
    if (compiled === 0 && existsSync(file) && statSync(file).mtimeMs > newest) continue;
    await linkAddon(units, variant, file);
    try {
      verify(file);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      if (variant.variant === "cpu") throw new Error(`the built addon does not load: ${e.stderr}`);
      log(`the ${variant.variant} addon does not load here, left out: ${e.stderr}`);
      continue;
    }
    writeFileSync(
      join(dir, "addon.json"),
      `${JSON.stringify({ variant: variant.variant, libDir: variant.libDir }, null, 2)}\n`,
    );
    log(`linked ${variant.variant} addon`);
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const install = process.argv.includes("--install");
try {
  await withBuildLock(buildDir, build, log);
} catch (e) {
  const why = e instanceof Error ? e.message : String(e);
  log(`building the multimodal (vision/audio) addon failed: ${why}`);
  if (install) {
    log("models with a projector need it; the server builds it again when one is loaded");
    process.exit(0);
  }
  process.exit(1);
}
