#!/usr/bin/env node
// Runs every compiled test file (dist/**/*.test.js) of the given packages, or of all
// packages, through Node's built-in runner so CI reads one summary, then says how many tests
// were skipped and why (a skip is not a pass; see QUINTET_REQUIRE_ALL in .ci/run).
// Usage: node scripts/run-tests.mjs [packages/<name> ...] [-- extra node --test flags]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
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
// A file whose process hangs is cancelled (a failure that names it) after this long, instead of
// holding the run until CI's own limit: once, a test file's Node process sat at start-up with
// no CPU for 15 minutes. No file takes a tenth of this; `-- --test-timeout=<ms>` overrides it.
const fileLimitMs = 20 * 60_000;
const files = packages.flatMap((pkg) => collect(join(pkg, "dist"), []));
if (files.length === 0) {
  console.error("run-tests: no compiled test files found; run `npm run build` first");
  process.exit(1);
}
const skipDir = mkdtempSync(join(tmpdir(), "run-tests-"));
const skipFile = join(skipDir, "skips.jsonl");
const result = spawnSync(
  process.execPath,
  [
    "--test",
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    `--test-reporter=${join(root, "scripts", "skip-reporter.mjs")}`,
    `--test-reporter-destination=${skipFile}`,
    `--test-concurrency=${concurrency}`,
    `--test-timeout=${fileLimitMs}`,
    ...extra,
    ...files.map((f) => relative(root, f)),
  ],
  { cwd: root, stdio: "inherit" },
);
reportSkips(existsSync(skipFile) ? readFileSync(skipFile, "utf8") : "");
rmSync(skipDir, { recursive: true, force: true });
process.exit(result.status ?? 1);

/** Prints how many tests and suites were skipped, grouped by reason, each with its tests. */
function reportSkips(lines) {
  const byReason = new Map();
  for (const line of lines.split("\n")) {
    if (!line) continue;
    const { file, name, reason } = JSON.parse(line);
    const where = file ? `${relative(root, file)}: ${name}` : name;
    byReason.set(reason, [...(byReason.get(reason) ?? []), where]);
  }
  const total = [...byReason.values()].reduce((sum, tests) => sum + tests.length, 0);
  console.log(`\nrun-tests: ${total} skipped (a skipped suite counts once)`);
  for (const [reason, tests] of byReason) {
    console.log(`  ${tests.length} x ${reason}`);
    for (const test of tests) console.log(`      ${test}`);
  }
}
