// Finds node-llama-cpp's source bundle and the prebuilt llama.cpp libraries of each variant.
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The GPU variants node-llama-cpp ships for Linux x64, each a package of prebuilt libraries. */
const VARIANT_PACKAGES = {
  cpu: "linux-x64",
  cuda: "linux-x64-cuda",
  vulkan: "linux-x64-vulkan",
};

/** node-llama-cpp's package folder, seen from the models package. */
export function nodeLlamaCppDir(fromDir) {
  const require = createRequire(join(fromDir, "package.json"));
  // Its exports map hides package.json; the main entry is dist/index.js.
  return dirname(dirname(require.resolve("node-llama-cpp")));
}

/** The git bundle of the llama.cpp source node-llama-cpp's binaries were built from. */
export function sourceBundle(llamaDir) {
  return join(llamaDir, "llama", "gitRelease.bundle");
}

/**
 * The installed variants: name, library folder and the libraries to link (their sonames
 * differ per variant: libllama.v0.5.0.so, libllama.cuda.v0.5.0.so, ...). Only linux-x64.
 */
export function installedVariants(llamaDir) {
  if (process.platform !== "linux" || process.arch !== "x64") return [];
  const require = createRequire(join(llamaDir, "package.json"));
  const found = [];
  for (const [variant, pkg] of Object.entries(VARIANT_PACKAGES)) {
    let pkgDir;
    try {
      // Their exports map hides package.json too; the main entry is dist/index.js.
      pkgDir = dirname(dirname(require.resolve(`@node-llama-cpp/${pkg}`)));
    } catch {
      continue;
    }
    const libDir = join(pkgDir, "bins", pkg);
    if (!existsSync(libDir)) continue;
    const files = readdirSync(libDir);
    const llama = files.find((f) => /^libllama\..*so$/.test(f));
    const ggml = files.find((f) => /^libggml\..*so$/.test(f));
    if (!llama || !ggml || !files.includes("libggml-base.so")) continue;
    found.push({ variant, libDir, libraries: [llama, ggml, "libggml-base.so"] });
  }
  return found;
}
