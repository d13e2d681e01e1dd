/**
 * One fuzz input: a compliance case with some of its modules or its query mutated, and how
 * running it through the public engine (parse, compile, evaluate) ended. The only endings
 * allowed are a result or a Rego error with a code; anything else is a failure.
 */
import { PolicyEngine } from "../../src/engine.js";
import { RegoError, RegoErrorList } from "../../src/errors.js";
import { fromJSON, stringifyJSON, type Value } from "../../src/value/value.js";
import type { ComplianceCase } from "../compliance/cases.js";
import { costlyLiteral, mutations } from "./mutations.js";
import { SeededRandom } from "./seeded-random.js";

/** A mutated case, rebuilt identically from (seed, index). */
export interface FuzzInput {
  index: number;
  note: string;
  /** The mutations applied, in order, with what they applied to. */
  applied: string[];
  modules: string[];
  query: string;
  data?: unknown;
  input?: unknown;
  inputTerm?: string;
  strict: boolean;
}

/** How one input ended: a result, a Rego error (its codes), or a failure of the engine. */
export type Outcome =
  | { kind: "result"; solutions: number }
  | { kind: "rego-error"; codes: string[] }
  | { kind: "failure"; detail: string };

/** The server's default request body limit (1 MiB), as a bound on one mutated text. */
const maxInputChars = 1024 * 1024;

/** The share of inputs that end with a costly literal. */
const costlyShare = 0.05;

/** A random text of a case, for splicing into another. */
function donorText(c: ComplianceCase, rng: SeededRandom): string {
  const texts = [...(c.modules ?? []), c.query];
  return rng.pick(texts);
}

/** Input `index` of the run with `seed`. */
export function buildInput(cases: ComplianceCase[], seed: number, index: number): FuzzInput {
  const rng = SeededRandom.forInput(seed, index);
  const c = rng.pick(cases);
  const modules = [...(c.modules ?? [])];
  let query = c.query;
  const applied: string[] = [];
  // Half the inputs get only mutations that usually keep the text parseable, so that the
  // compiler and the evaluator see as much as the parser does.
  const pool = rng.chance(0.5) ? mutations.filter((m) => m.keepsSyntax) : mutations;
  const count = rng.between(1, 3);
  for (let i = 0; i < count; i++) {
    const mutation = rng.pick(pool);
    const donor = donorText(rng.pick(cases), rng);
    const m = modules.length > 0 && rng.chance(0.6) ? rng.int(modules.length) : -1;
    const before = m < 0 ? query : (modules[m] as string);
    const after = mutation.apply(before, rng, donor);
    const target = m < 0 ? "query" : `module ${m}`;
    // Inputs stay within what the server accepts in one request body.
    if (after.length > maxInputChars) {
      applied.push(`${mutation.name} (${target}; not applied: over ${maxInputChars} chars)`);
      continue;
    }
    if (m < 0) query = after;
    else modules[m] = after;
    applied.push(`${mutation.name} (${target})`);
  }
  // A few inputs (each runs until the evaluation timeout) end with a call that can run long.
  if (rng.chance(costlyShare)) {
    query = costlyLiteral.apply(query, rng, "");
    applied.push(`${costlyLiteral.name} (query)`);
  }
  return {
    index,
    note: c.note,
    applied,
    modules,
    query,
    data: c.data,
    input: c.input,
    inputTerm: c.input_term,
    strict: c.strict_error === true,
  };
}

/** A fixed clock keeps time builtins deterministic. */
const nowNs = 1_700_000_000_000_000_000n;

/** Parses, compiles and evaluates `input`; evaluation is bounded by `evalTimeoutMs`. */
export function runInput(input: FuzzInput, evalTimeoutMs: number): Outcome {
  try {
    const engine = new PolicyEngine();
    input.modules.forEach((src, i) => {
      engine.addModule(`fuzz-${i}.rego`, src);
    });
    if (input.data !== undefined) engine.addData([], input.data);
    engine.compile();
    const options = {
      strictBuiltinErrors: input.strict,
      timeoutMs: evalTimeoutMs,
      nowNs,
      print: () => {},
    };
    let value: Value | undefined = input.input === undefined ? undefined : fromJSON(input.input);
    if (input.inputTerm !== undefined) {
      value = engine.query(`inputterm = ${input.inputTerm}`, options)[0]?.bindings.get("inputterm");
    }
    const results = engine.query(input.query, { ...options, input: value });
    // Writing the answer is part of answering: its values must serialise.
    for (const r of results) for (const v of r.bindings.values()) stringifyJSON(v);
    return { kind: "result", solutions: results.length };
  } catch (e) {
    return classify(e);
  }
}

/** A thrown value as an outcome: Rego errors with codes are fine, anything else fails. */
export function classify(e: unknown): Outcome {
  if (e instanceof RegoError) return { kind: "rego-error", codes: [e.code] };
  if (e instanceof RegoErrorList) {
    const bad = e.errors.find((x) => !(x instanceof RegoError) || !x.code);
    if (bad === undefined && e.errors.length > 0) {
      return { kind: "rego-error", codes: e.errors.map((x) => x.code) };
    }
    return { kind: "failure", detail: `RegoErrorList with an item that is no RegoError: ${e}` };
  }
  if (e instanceof RangeError)
    return { kind: "failure", detail: `RangeError leaked: ${e.message}` };
  const where = e instanceof Error ? (e.stack ?? "").split("\n").slice(0, 4).join(" | ") : "";
  return { kind: "failure", detail: `uncaught ${describe(e)}${where ? ` at ${where}` : ""}` };
}

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : `non-error thrown: ${String(e)}`;
}
