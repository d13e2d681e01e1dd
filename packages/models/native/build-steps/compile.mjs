// Compiles the addon's sources to objects (in parallel, reusing up-to-date ones) and links them.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** One translation unit: source file, object file, compiler and flags. */
function unit(src, objDir, compiler, flags) {
  const name = src.replace(/[/\\]/g, "_").replace(/^_+/, "").slice(-120);
  return { src, obj: join(objDir, `${name}.o`), compiler, flags };
}

/**
 * The translation units: mtmd (tools/mtmd without its command-line tools and the audio
 * generation helper, whose internal llama.cpp symbol the prebuilt library does not export),
 * the vendored hash functions it uses, and the addon's own sources.
 */
export function translationUnits({ llamaSrc, addonSrc, objDir, nodeInclude, addonApiInclude }) {
  const cxx = process.env.CXX || "g++";
  const cc = process.env.CC || "gcc";
  const mtmd = join(llamaSrc, "tools", "mtmd");
  const vendor = join(llamaSrc, "vendor");
  const common = ["-O2", "-fPIC", "-fvisibility=hidden", "-DNDEBUG", "-pthread"];
  const includes = [
    `-I${join(llamaSrc, "include")}`,
    `-I${join(llamaSrc, "ggml", "include")}`,
    `-I${mtmd}`,
    `-I${vendor}`,
  ];
  // Third-party code: its warnings are not ours to fix.
  const mtmdFlags = ["-std=c++17", "-w", ...common, ...includes];
  const units = [];
  for (const f of ["mtmd.cpp", "mtmd-audio.cpp", "mtmd-image.cpp", "mtmd-helper.cpp", "clip.cpp"]) {
    units.push(unit(join(mtmd, f), objDir, cxx, mtmdFlags));
  }
  for (const f of readdirSync(join(mtmd, "models"))
    .filter((n) => n.endsWith(".cpp"))
    .sort()) {
    units.push(unit(join(mtmd, "models", f), objDir, cxx, mtmdFlags));
  }
  const hash = join(vendor, "hash");
  const hashFlags = ["-w", ...common, `-I${vendor}`, `-I${hash}`];
  units.push(unit(join(hash, "hash.cpp"), objDir, cxx, ["-std=c++17", ...hashFlags]));
  // sha1 is wrapped in a C++ namespace upstream, so it is compiled as C++.
  units.push(
    unit(join(hash, "sha1", "sha1.c"), objDir, cxx, ["-x", "c++", "-std=c++17", ...hashFlags]),
  );
  units.push(unit(join(hash, "sha256", "sha256.c"), objDir, cc, ["-std=c11", ...hashFlags]));
  units.push(unit(join(hash, "xxhash", "xxhash.c"), objDir, cc, ["-std=c11", ...hashFlags]));
  const addonFlags = [
    "-std=c++17",
    "-Wall",
    ...common,
    ...includes,
    // llama-ext.h: llama.cpp's staging API (the memory breakdown for VRAM figures).
    `-I${join(llamaSrc, "src")}`,
    `-I${nodeInclude}`,
    `-I${addonApiInclude}`,
    "-DNAPI_VERSION=8",
    "-DNAPI_CPP_EXCEPTIONS",
    "-DNODE_ADDON_API_DISABLE_DEPRECATED",
  ];
  for (const f of readdirSync(addonSrc)
    .filter((n) => n.endsWith(".cpp"))
    .sort()) {
    units.push(unit(join(addonSrc, f), objDir, cxx, addonFlags));
  }
  return units;
}

/** Newest modification time of the addon's own headers (a change recompiles its sources). */
function headersTime(dir) {
  return Math.max(
    0,
    ...readdirSync(dir)
      .filter((n) => n.endsWith(".h"))
      .map((n) => statSync(join(dir, n)).mtimeMs),
  );
}

/** Whether an object is newer than its source (and flags), so it can be reused. */
function upToDate(u, addonHeaders) {
  if (!existsSync(u.obj) || !existsSync(`${u.obj}.flags`)) return false;
  if (readFileSync(`${u.obj}.flags`, "utf8") !== u.flags.join(" ")) return false;
  const objTime = statSync(u.obj).mtimeMs;
  return objTime > statSync(u.src).mtimeMs && objTime > addonHeaders;
}

/** Compiles the units that are not up to date, `jobs` at a time; reports progress. */
export async function compileAll(units, addonSrc, log) {
  const headers = headersTime(addonSrc);
  const todo = units.filter((u) => !upToDate(u, u.src.startsWith(addonSrc) ? headers : 0));
  const jobs = Math.max(1, Number(process.env.LLMSRV_NATIVE_JOBS) || availableParallelism());
  let done = 0;
  const next = async () => {
    for (let u = todo.shift(); u; u = todo.shift()) {
      mkdirSync(join(u.obj, ".."), { recursive: true });
      try {
        await run(u.compiler, [...u.flags, "-c", u.src, "-o", u.obj], { maxBuffer: 64 << 20 });
      } catch (e) {
        throw new Error(`compiling ${basename(u.src)} failed:\n${e.stderr || e.message}`);
      }
      writeFileSync(`${u.obj}.flags`, u.flags.join(" "));
      done++;
      log(`compiled ${basename(u.src)} (${done}/${done + todo.length})`);
    }
  };
  const total = todo.length;
  if (total > 0) log(`compiling ${total} files with ${jobs} job(s)`);
  await Promise.all(Array.from({ length: Math.min(jobs, Math.max(1, total)) }, next));
  return total;
}

/** Links the objects into `out` against one variant's libraries, with an rpath to their folder. */
export async function linkAddon(units, variant, out) {
  mkdirSync(join(out, ".."), { recursive: true });
  const args = [
    "-shared",
    "-pthread",
    "-o",
    out,
    ...units.map((u) => u.obj),
    `-L${variant.libDir}`,
    ...variant.libraries.map((l) => `-l:${l}`),
    `-Wl,-rpath,${variant.libDir}`,
    `-Wl,-rpath-link,${variant.libDir}`,
    // The variant's own dependencies (CUDA, Vulkan) are resolved when it is loaded.
    "-Wl,--allow-shlib-undefined",
  ];
  try {
    await run(process.env.CXX || "g++", args, { maxBuffer: 64 << 20 });
  } catch (e) {
    throw new Error(`linking the ${variant.variant} addon failed:\n${e.stderr || e.message}`);
  }
}
