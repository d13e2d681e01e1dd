/**
 * The contract between builtin families and the evaluator. Each family file exports a
 * `BuiltinDef[]`; `registry.ts` collects them. Operand and result types use a small text
 * notation that the type checker parses:
 *   any | null | boolean | number | string
 *   array | array[T] | set | set[T] | object | object[K, V]
 *   A | B        (union, lowest precedence)
 * Example: `{ name: "upper", args: ["string"], result: "string", impl: ... }`.
 */

import type { Value } from "../value/value.js";
import type { ExternalCalls } from "./external-calls.js";

/** What a builtin may use besides its operands. Fixed for one query evaluation. */
export interface BuiltinContext {
  /** Wall clock at the start of the query, nanoseconds since the epoch (time.now_ns). */
  readonly nowNs: bigint;
  /** Per-query memo for nondeterministic builtins and compiled artefacts (regexes, etc.). */
  readonly cache: Map<string, unknown>;
  /** Sink for `print` output. */
  print(message: string): void;
  /** True when the query runs with strict builtin errors. */
  readonly strict: boolean;
  /**
   * Raises eval_cancel_error once the query's time is up or it was cancelled. Cheap (a
   * counter): loops whose length comes from operands call it once per step.
   */
  checkCancel(): void;
  /** Most elements (or characters) one result may have; see `limits.ts`. */
  readonly maxCollectionSize: number;
  /** Receives `trace()` notes when the query is explained; undefined otherwise. */
  readonly trace?: (note: string) => void;
  /**
   * Present when the query runs asynchronously (`queryAsync`/`evalRefAsync`): builtins
   * that reach the network read their answers here (see builtins/external-calls.ts).
   */
  readonly external?: ExternalCalls;
}

export interface BuiltinDef {
  /** Full dotted name as called from Rego, e.g. `strings.replace_n`. */
  readonly name: string;
  /** Operand types, in order. */
  readonly args: readonly string[];
  /** Result type. */
  readonly result: string;
  /** True when the result can change between calls with equal operands (time, rand, uuid). */
  readonly nondeterministic?: boolean;
  /**
   * Computes the result. Return `undefined` for an undefined result. Throw `BuiltinTypeError`
   * for a bad operand type (message `<name>: operand N must be <type> but got <type>`, see
   * args.ts) and `BuiltinError` for any other failure.
   */
  impl(args: Value[], ctx: BuiltinContext): Value | undefined;
  /**
   * Relations (only `walk`): instead of one result, every output the builtin relates to the
   * operands. When present, `impl` is not called.
   */
  relation?(args: Value[], ctx: BuiltinContext): Iterable<Value>;
}
