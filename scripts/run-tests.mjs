#!/usr/bin/env node
// Runs every compiled test file (dist/**/*.test.js) of the given packages, or of all
// packages, through Node's built-in runner so CI reads one summary.
// Usage: node scripts/run-tests.mjs [packages/<name> ...] [-- extra node --test flags]
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const roots = (dash < 0 ? argv : argv.slice(0, dash)).map((p) => resolve(root, p));
const extra = dash < 0 ? [] : argv.slice(dash + 1);
const packages = roots.length
  ? roots
  : readdirSync(join(root, "packages")).map((name) => join(root, "packages", name));

/** Collects test files under dir, in a stable order. */
function collect(dir, out) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (entry.endsWith(".test.js")) out.push(path);
  }
  return out;
}

// Two files at a time even on two cores (Node's default would be one): most test time is
// spent waiting on child processes, browsers and sockets, and this halves the suite's time.
const concurrency = Math.max(2, availableParallelism());
const files = packages.flatMap((pkg) => collect(join(pkg, "dist"), []));
if (files.length === 0) {
  console.error("run-tests: no compiled test files found; run `npm run build` first");
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  [
    "--test",
    "--test-reporter=spec",
    `--test-concurrency=${concurrency}`,
    ...extra,
    ...files.map((f) => relative(root, f)),
  ],
  { cwd: root, stdio: "inherit" },
);
process.exit(result.status ?? 1);
