/**
 * Each package, packed with `npm pack`, installs on its own into a clean global prefix and
 * its command runs. Registry dependencies come from the npm cache when it has them
 * (--prefer-offline); the workspace packages it depends on (@quintet/kit, @quintet/gostd), which
 * are not on the registry, are installed from their own tarballs beside it. Installing everything takes one to three minutes (node-llama-cpp
 * alone is 700 MB), so the ordinary test run skips it; .ci/run sets QUINTET_PACK_TEST=1.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { packageCommands, readManifest, repoRoot } from "./package-commands.js";

const run = promisify(execFile);
const enabled = process.env.QUINTET_PACK_TEST === "1";
const skip = enabled
  ? false
  : "set QUINTET_PACK_TEST=1 to pack and install every package (minutes; .ci/run does)";

/** The workspace packages (`@quintet/*`) a package depends on, directly or through another one. */
function workspaceDependencies(dir: string): string[] {
  const dirsByName = new Map<string, string>();
  for (const entry of readdirSync(join(repoRoot, "packages"))) {
    dirsByName.set(readManifest(entry).name, entry);
  }
  const found = new Set<string>();
  const visit = (from: string) => {
    const deps = (readManifest(from) as { dependencies?: Record<string, string> }).dependencies;
    for (const name of Object.keys(deps ?? {})) {
      const depDir = dirsByName.get(name);
      if (depDir === undefined || found.has(name)) continue;
      found.add(name);
      visit(depDir);
    }
  };
  visit(dir);
  return [...found].sort();
}

/** The tarball `npm pack` wrote for a package name, e.g. quintet-policy-0.1.0.tgz. */
function tarball(dir: string, name: string): string {
  const stem = name.replace(/^@/, "").replace("/", "-");
  const file = readdirSync(dir).find((f) => f.startsWith(`${stem}-`) && f.endsWith(".tgz"));
  assert.ok(file, `npm pack wrote no tarball for ${name}`);
  return join(dir, file);
}

describe("install from npm pack", { skip }, () => {
  let packed = "";

  before(async () => {
    packed = mkdtempSync(join(tmpdir(), "quintet-pack-"));
    await run("npm", ["pack", "--silent", "--workspaces", "--pack-destination", packed], {
      cwd: repoRoot,
    });
  });

  after(() => {
    if (packed) rmSync(packed, { recursive: true, force: true });
  });

  for (const { dir, name, command } of packageCommands()) {
    it(`${name} installs alone into a clean prefix and \`${command} --help\` runs`, async () => {
      const prefix = mkdtempSync(join(tmpdir(), `quintet-prefix-${command}-`));
      try {
        const tarballs = [
          ...workspaceDependencies(dir).map((dep) => tarball(packed, dep)),
          tarball(packed, name),
        ];
        await run(
          "npm",
          [
            "install",
            "-g",
            "--prefix",
            prefix,
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            ...tarballs,
          ],
          { cwd: packed, maxBuffer: 16 * 1024 * 1024 },
        );
        const { stdout } = await run(join(prefix, "bin", command), ["--help"], {
          cwd: prefix,
          env: { ...process.env, PATH: `${join(prefix, "bin")}:${process.env.PATH}` },
        });
        assert.match(stdout, new RegExp(`usage: ${command}`, "i"));
      } finally {
        rmSync(prefix, { recursive: true, force: true });
      }
    });
  }
});
