/**
 * The acceptance fuzz test: mutated OPA compliance modules and queries, run through the
 * public engine (parse, compile, evaluate with a time bound). Every input must end in a
 * result or a Rego error with a code: no uncaught exception, no RangeError, no input that
 * runs past its bound. Bounded, seeded and deterministic; for longer runs set
 * REGO_FUZZ_SEED, REGO_FUZZ_ITERATIONS, REGO_FUZZ_ONLY (comma-separated input indexes, to
 * reproduce failures) and REGO_FUZZ_INPUT_BOUND_MS.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { loadCases } from "../compliance/cases.js";
import { buildInput } from "./fuzz-input.js";
import { type FuzzSettings, type InputReport, runCampaign } from "./fuzz-run.js";

const suiteDir = resolve(
  fileURLToPath(new URL("../../../../../..", import.meta.url)),
  "shared/opa-compliance",
);

/** A whole number from the environment, or the default; anything else is refused. */
function envNumber(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a whole number, got ${text}`);
  return Number(text);
}

function envIndexes(name: string): number[] | undefined {
  const text = process.env[name];
  if (!text) return undefined;
  return text.split(",").map((p) => {
    if (!/^\d+$/.test(p.trim())) throw new Error(`${name} lists input indexes, got ${text}`);
    return Number(p);
  });
}

const settings: FuzzSettings = {
  suiteDir,
  seed: envNumber("REGO_FUZZ_SEED", 16),
  iterations: envNumber("REGO_FUZZ_ITERATIONS", 1000),
  only: envIndexes("REGO_FUZZ_ONLY"),
  // Evaluation is cut short by the engine's own timeout; the input bound is the harness's
  // guard for work the timeout does not cover, generous because the machine is shared.
  evalTimeoutMs: 100,
  inputBoundMs: envNumber("REGO_FUZZ_INPUT_BOUND_MS", 10_000),
};

/** A failing input, with what it takes to rebuild and rerun it. */
function describeFailure(report: InputReport): string {
  const cases = loadCases([suiteDir]).map((c) => c.case);
  const input = buildInput(cases, settings.seed, report.index);
  const text = JSON.stringify({ modules: input.modules, query: input.query });
  const shown = text.length > 600 ? `${text.slice(0, 600)}… (${text.length} chars)` : text;
  const detail = report.outcome.kind === "failure" ? report.outcome.detail : "";
  return [
    `input ${report.index} (REGO_FUZZ_SEED=${settings.seed} REGO_FUZZ_ONLY=${report.index}):`,
    `  case ${input.note}; mutations: ${input.applied.join(", ")}`,
    `  ${detail}`,
    `  ${shown}`,
  ].join("\n");
}

test("mutated compliance cases never crash the engine", {
  skip: skipUnlessProvided(
    existsSync(suiteDir) ? undefined : `compliance suite not found at ${suiteDir}: fuzz skipped`,
  ),
  timeout: 15 * 60_000,
}, async (t) => {
  const { reports, stoppedEarly } = await runCampaign(settings);
  const expected = settings.only?.length ?? settings.iterations;
  const failures = reports.filter((r) => r.outcome.kind === "failure");
  const codes = new Map<string, number>();
  for (const r of reports) {
    const key = r.outcome.kind === "rego-error" ? (r.outcome.codes[0] ?? "?") : r.outcome.kind;
    codes.set(key, (codes.get(key) ?? 0) + 1);
  }
  // The slowest input that was answered (those cut off are listed with the failures).
  const answered = reports.filter((r) => r.outcome.kind !== "failure");
  const slowest = answered.sort((a, b) => b.ms - a.ms)[0];
  t.diagnostic(`seed ${settings.seed}: ${reports.length} inputs; ${[...codes].join(", ")}`);
  if (slowest) {
    const c = buildInput(
      loadCases([suiteDir]).map((l) => l.case),
      settings.seed,
      slowest.index,
    );
    t.diagnostic(
      `slowest answered: input ${slowest.index} (${c.note}; ${c.applied.join(", ")}) ${Math.round(slowest.ms)} ms`,
    );
  }
  assert.deepEqual(failures.map(describeFailure), [], "inputs that crashed or ran unbounded");
  assert.equal(stoppedEarly, undefined);
  assert.equal(reports.length, expected, "every input was run and answered");
});
