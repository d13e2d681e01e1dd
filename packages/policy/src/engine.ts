/**
 * The public face of the Rego engine: load modules and data, compile once, then evaluate
 * queries or data references many times.
 */
import type { Value } from "./value/value.js";

/** Engine-wide options. */
export interface EngineOptions {
  /** Parse every module as Rego v0 unless it says otherwise. */
  v0Compatible?: boolean;
  /** Default for QueryOptions.strictBuiltinErrors. */
  strictBuiltinErrors?: boolean;
}

/** Options of one evaluation. */
export interface QueryOptions {
  /** The input document; undefined means no input. */
  input?: Value;
  /** Builtin errors halt evaluation instead of making the expression undefined. */
  strictBuiltinErrors?: boolean;
  /** Bound on evaluation time; exceeding it raises eval_cancel_error. */
  timeoutMs?: number;
  /** Cancellation; raises eval_cancel_error. */
  signal?: AbortSignal;
  /** Sink for `print` output. */
  print?: (message: string) => void;
  /** Fixed clock for tests (nanoseconds since the epoch). */
  nowNs?: bigint;
}

/** One expression of a query result. */
export interface ExpressionResult {
  value: Value;
  text: string;
  location: { row: number; col: number };
}

/** One solution of a query. */
export interface QueryResult {
  expressions: ExpressionResult[];
  bindings: Map<string, Value>;
}

/** A Rego engine instance: modules and data, compiled once, evaluated many times. */
export class PolicyEngine {
  constructor(readonly options: EngineOptions = {}) {}

  /** Parses a module; throws RegoErrorList (rego_parse_error, file:line:col) on errors. */
  addModule(_file: string, _source: string, _options?: { v0Compatible?: boolean }): void {
    throw new Error("not implemented yet");
  }

  /** Merges JSON data into `data` at `path` (e.g. ["a","b"] for data.a.b). */
  addData(_path: string[], _value: unknown): void {
    throw new Error("not implemented yet");
  }

  /** Compiles everything added; throws RegoErrorList with every compile error sorted by location. */
  compile(): void {
    throw new Error("not implemented yet");
  }

  /** Evaluates a Rego query string; one entry per solution. */
  query(_query: string, _options?: QueryOptions): QueryResult[] {
    throw new Error("not implemented yet");
  }

  /** Fast path for the data API: the value of data.<path...> (undefined when undefined). */
  evalRef(_path: (string | number)[], _options?: QueryOptions): Value | undefined {
    throw new Error("not implemented yet");
  }

  /** The modules loaded, for `inspect`: package path (e.g. "data.simple") and file name. */
  modules(): { file: string; packagePath: string }[] {
    return [];
  }
}
