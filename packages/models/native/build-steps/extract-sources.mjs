// Extracts the parts of llama.cpp's source the addon compiles from node-llama-cpp's git bundle.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What the addon needs: tools/mtmd, its vendored libraries and the public headers. */
const PATHS = [
  "tools/mtmd",
  "vendor/stb",
  "vendor/miniaudio",
  "vendor/hash",
  "vendor/sheredom",
  "include",
  "ggml/include",
  "src/llama-ext.h",
];

/** Runs git, turning "git is not installed" into a message that says what it was for. */
function git(args, cwd) {
  try {
    return execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] }).toString();
  } catch (e) {
    if (e.code === "ENOENT") {
      throw new Error(
        "git is not installed: it is needed once to extract llama.cpp's source from " +
          "node-llama-cpp's gitRelease.bundle (install git and run `npm rebuild @quintet/models`)",
      );
    }
    throw new Error(`git ${args[0]} failed: ${e.stderr?.toString().trim() || e.message}`);
  }
}

/**
 * Extracts PATHS of the bundle's commit into `<buildDir>/llama.cpp-<commit>` (once per commit)
 * and returns that folder. Nothing is checked out besides them (a `git archive` of those paths).
 */
export function extractSources(bundle, buildDir) {
  if (!existsSync(bundle)) throw new Error(`node-llama-cpp's source bundle is missing: ${bundle}`);
  const heads = git(["bundle", "list-heads", bundle], buildDir).trim().split("\n");
  const commit = heads[0]?.split(" ")[0];
  if (!commit || !/^[0-9a-f]{40}$/.test(commit)) throw new Error(`unreadable bundle ${bundle}`);
  const out = join(buildDir, `llama.cpp-${commit.slice(0, 12)}`);
  if (existsSync(join(out, ".complete"))) return out;
  const work = `${out}.partial`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const repo = join(work, ".git-tmp");
  git(["init", "--quiet", "--bare", repo], work);
  git(["--git-dir", repo, "fetch", "--quiet", bundle, `${commit}:refs/heads/source`], work);
  const tar = join(work, "source.tar");
  git(["--git-dir", repo, "archive", "--output", tar, "refs/heads/source", ...PATHS], work);
  execFileSync("tar", ["-xf", tar, "-C", work]);
  rmSync(repo, { recursive: true, force: true });
  rmSync(tar, { force: true });
  writeFileSync(join(work, ".complete"), `${commit}\n`);
  rmSync(out, { recursive: true, force: true });
  renameSync(work, out);
  return out;
}
