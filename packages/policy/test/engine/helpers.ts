/**
 * Small helpers for engine tests: build an engine from module sources and read query
 * bindings as plain JSON.
 */
import { PolicyEngine, type QueryOptions } from "../../src/engine.js";
import type { RegoError } from "../../src/errors.js";
import { fromJSON, stringifyJSON } from "../../src/value/value.js";

/** An engine with the given modules (named test-<i>.rego) and data, compiled. */
export function engineWith(modules: string[], data?: unknown): PolicyEngine {
  const e = new PolicyEngine();
  modules.forEach((m, i) => {
    e.addModule(`test-${i}.rego`, m);
  });
  if (data !== undefined) e.addData([], data);
  e.compile();
  return e;
}

/** data.heads as plain JSON, from one module parsed as Rego v1, or v0 when `v0`. */
export function headsPackage(source: string, v0 = false): unknown {
  const e = new PolicyEngine({ v0Compatible: v0 });
  e.addModule("heads.rego", source);
  e.compile();
  const v = e.evalRef(["heads"]);
  return v === undefined ? undefined : JSON.parse(stringifyJSON(v));
}

/** The first error compiling `source` as data.heads gets, as `row:col: message`. */
export function headsParseError(source: string, v0 = false): string {
  try {
    headsPackage(source, v0);
  } catch (e) {
    const first = (e as { errors?: RegoError[] }).errors?.[0];
    if (!first) throw e;
    return `${first.location?.row}:${first.location?.col}: ${first.code}: ${first.message}`;
  }
  return "no error";
}

/** Each solution's bindings as a plain object of JSON values. */
export function solutions(
  e: PolicyEngine,
  query: string,
  options: QueryOptions & { inputJSON?: unknown } = {},
): Record<string, unknown>[] {
  const input = options.inputJSON === undefined ? options.input : fromJSON(options.inputJSON);
  return e.query(query, { ...options, input }).map((r) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of r.bindings) out[k] = JSON.parse(stringifyJSON(v));
    return out;
  });
}

/** The error thrown by `f`, or a failure when it does not throw. */
export function thrown(
  f: () => unknown,
): Error & { code?: string; errors?: { code: string; message: string }[] } {
  try {
    f();
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error("expected an error");
}
