/**
 * `npm run compliance -w @quintet/policy -- [dir...]`: runs the OPA compliance cases (default:
 * the whole suite at ../shared/opa-compliance from the repository root), prints failures by
 * folder and `N passed, M failed`, and writes COMPLIANCE.md after a whole-suite run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isSuiteRoot, loadCases } from "./cases.js";
import { formatFailures, formatReport, runSuite } from "./suite.js";

const here = dirname(fileURLToPath(import.meta.url));
/** dist/test/compliance → the package, then the repository root. */
const packageDir = resolve(here, "../../..");
export const defaultSuiteDir = resolve(packageDir, "../../../shared/opa-compliance");

/** The hand-written part of the report (from `## Known differences` on), kept as it is. */
function keptNotes(report: string): string {
  let text: string;
  try {
    text = readFileSync(report, "utf8");
  } catch {
    return "";
  }
  const at = text.indexOf("\n## Known differences");
  return at < 0 ? "" : text.slice(at);
}

function main(argv: string[]): number {
  const dirs = argv.length > 0 ? argv.map((d) => resolve(d)) : [defaultSuiteDir];
  let cases: ReturnType<typeof loadCases>;
  try {
    cases = loadCases(dirs);
  } catch (e) {
    process.stderr.write(`compliance: ${(e as Error).message}\n`);
    return 2;
  }
  const summary = runSuite(cases);
  const failures = formatFailures(summary);
  if (failures) process.stdout.write(`${failures}\n`);
  process.stdout.write(`suite wall time: ${summary.wallMs} ms\n`);
  if (dirs.length === 1 && isSuiteRoot(dirs[0] as string)) {
    const report = resolve(packageDir, "COMPLIANCE.md");
    writeFileSync(report, formatReport(summary) + keptNotes(report));
  }
  process.stdout.write(`${summary.passed} passed, ${summary.failed} failed\n`);
  return summary.failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
