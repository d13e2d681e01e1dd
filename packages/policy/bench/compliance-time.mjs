/** Wall time of the whole OPA compliance suite through the package's runner (a child process). */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const suiteDir = fileURLToPath(new URL("../../../../shared/opa-compliance", import.meta.url));

/** Runs the suite once; undefined when the suite folder is absent. */
export function benchCompliance() {
  if (!existsSync(suiteDir)) return undefined;
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ["dist/test/compliance/cli.js", suiteDir], {
    cwd: packageDir,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallS = Number(process.hrtime.bigint() - start) / 1e9;
  const totals = /(\d+) passed, (\d+) failed/.exec(run.stdout ?? "");
  return {
    wallS,
    passed: totals ? Number(totals[1]) : undefined,
    failed: totals ? Number(totals[2]) : undefined,
  };
}
