/**
 * Test support for builtin families: call a registered builtin by name with plain JS operands
 * (converted with `fromJSON`; sets and objects pass through) and read results as JSON text.
 */
import { BuiltinError, BuiltinTypeError } from "../../errors.js";
import { fromJSON, RegoObject, RegoSet, stringifyJSON, type Value } from "../../value/value.js";
import { lookupBuiltin } from "../registry.js";
import type { BuiltinContext } from "../registry-types.js";

/** A fresh context: fixed clock, empty cache, print collected into `printed`. */
export function testContext(): BuiltinContext & { printed: string[] } {
  const printed: string[] = [];
  return {
    nowNs: 1_700_000_000_000_000_000n,
    cache: new Map(),
    strict: true,
    checkCancel: () => {},
    maxCollectionSize: 1_000_000,
    printed,
    print: (message) => printed.push(message),
  };
}

function operand(x: unknown): Value {
  return x instanceof RegoSet || x instanceof RegoObject ? x : fromJSON(x);
}

/** Calls builtin `name`; throws when it is not registered. */
export function callBuiltin(
  name: string,
  args: unknown[],
  ctx: BuiltinContext = testContext(),
): Value | undefined {
  const def = lookupBuiltin(name);
  if (!def) throw new Error(`builtin ${name} is not registered`);
  return def.impl(args.map(operand), ctx);
}

/** The result of `callBuiltin` as JSON text (sets as sorted arrays), or "undefined". */
export function callJSON(name: string, ...args: unknown[]): string {
  const result = callBuiltin(name, args);
  return result === undefined ? "undefined" : stringifyJSON(result);
}

/** A set of the given members (plain JS values converted). */
export function set(...members: unknown[]): RegoSet {
  return RegoSet.of(members.map(operand));
}

/** An object from key/value pairs, keys of any kind. */
export function obj(...entries: [unknown, unknown][]): RegoObject {
  return RegoObject.fromEntries(entries.map(([k, v]) => [operand(k), operand(v)]));
}

/** Matcher for `assert.throws`: a BuiltinTypeError (eval_type_error) with this message. */
export function typeError(message: string): { name: string; message: string } {
  return { name: new BuiltinTypeError("").name, message };
}

/** Matcher for `assert.throws`: a BuiltinError (eval_builtin_error) with this message. */
export function builtinError(message: string): { name: string; message: string } {
  return { name: new BuiltinError("").name, message };
}
