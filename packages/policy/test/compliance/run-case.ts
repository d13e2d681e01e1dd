/**
 * Runs one compliance case through PolicyEngine and decides whether it passes: bindings
 * compared as JSON (solution order ignored; arrays sorted when the case says so), errors by
 * code and message substring.
 */
import { PolicyEngine, type QueryOptions } from "../../src/engine.js";
import { RegoError, RegoErrorList } from "../../src/errors.js";
import { fromJSON, stringifyJSON, type Value } from "../../src/value/value.js";
import type { ComplianceCase } from "./cases.js";

export interface CaseOutcome {
  passed: boolean;
  /** Why it failed, for the report. */
  reason?: string;
}

/** Per-case bound on evaluation time, so one runaway case cannot hang the suite. */
const caseTimeoutMs = 2000;
/** A fixed clock makes time builtins deterministic across a run. */
const nowNs = BigInt(Date.now()) * 1_000_000n;

/** JSON text with object keys sorted, for order-insensitive comparison. */
function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(",")}]`;
  if (x && typeof x === "object") {
    const keys = Object.keys(x as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((x as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(x);
}

function sortArrays(binding: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(binding)) {
    out[k] = Array.isArray(v)
      ? [...v].sort((a, b) =>
          canonical(a) < canonical(b) ? -1 : canonical(a) > canonical(b) ? 1 : 0,
        )
      : v;
  }
  return out;
}

function solutionsKey(solutions: Record<string, unknown>[], sort: boolean): string {
  return solutions
    .map((s) => canonical(sort ? sortArrays(s) : s))
    .sort()
    .join("\n");
}

function errorText(e: unknown): { codes: string[]; text: string } {
  if (e instanceof RegoErrorList)
    return { codes: e.errors.map((x) => x.code), text: e.errors.map(String).join("\n") };
  if (e instanceof RegoError) return { codes: [e.code], text: e.toString() };
  return { codes: [], text: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

function evaluate(c: ComplianceCase, extra: QueryOptions): Record<string, unknown>[] {
  // OPA's topdown harness, which these cases come from, compiles without its data/policy
  // path-conflict check: base data shadows a rule of the same path there.
  const engine = new PolicyEngine({ checkDataConflicts: false });
  (c.modules ?? []).forEach((src, i) => {
    engine.addModule(`test-${i}.rego`, src);
  });
  if (c.data !== undefined) engine.addData([], c.data);
  engine.compile();
  const options = {
    strictBuiltinErrors: c.strict_error === true,
    timeoutMs: caseTimeoutMs,
    nowNs,
    print: () => {},
    ...extra,
  };
  let input: Value | undefined = c.input === undefined ? undefined : fromJSON(c.input);
  if (c.input_term !== undefined) {
    const r = engine.query(`inputterm = ${c.input_term}`, options);
    input = r[0]?.bindings.get("inputterm");
  }
  const results = engine.query(c.query, { ...options, input });
  return results.map((r) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of r.bindings) out[k] = JSON.parse(stringifyJSON(v));
    return out;
  });
}

/** Runs one case; `extra` options (e.g. a tracer) are added to every query. */
export function runCase(c: ComplianceCase, extra: QueryOptions = {}): CaseOutcome {
  const wantsError = c.want_error_code !== undefined || c.want_error !== undefined;
  let got: Record<string, unknown>[];
  try {
    got = evaluate(c, extra);
  } catch (e) {
    const { codes, text } = errorText(e);
    if (!wantsError) return { passed: false, reason: `unexpected error: ${text}` };
    if (c.want_error_code !== undefined && !codes.includes(c.want_error_code)) {
      return { passed: false, reason: `want error ${c.want_error_code}, got ${text}` };
    }
    if (c.want_error !== undefined && !text.includes(c.want_error)) {
      return { passed: false, reason: `want error message "${c.want_error}", got ${text}` };
    }
    return { passed: true };
  }
  if (wantsError) {
    return {
      passed: false,
      reason: `want error ${c.want_error_code ?? c.want_error}, got ${JSON.stringify(got).slice(0, 200)}`,
    };
  }
  const want = c.want_result ?? [];
  const sort = c.sort_bindings === true;
  if (solutionsKey(want, sort) === solutionsKey(got, sort)) return { passed: true };
  return {
    passed: false,
    reason: `want ${JSON.stringify(want).slice(0, 300)}, got ${JSON.stringify(got).slice(0, 300)}`,
  };
}
