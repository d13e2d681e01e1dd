/**
 * Small helpers for engine tests: build an engine from module sources and read query
 * bindings as plain JSON.
 */
import { PolicyEngine, type QueryOptions } from "../../src/engine.js";
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
