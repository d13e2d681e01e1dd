/**
 * Bounded work in builtins: a builtin whose result size comes from its operands checks the
 * size before building it (REGO_MAX_COLLECTION_SIZE), and loops whose length comes from the
 * operands check the query's deadline as they go. Both errors abort the query.
 */
import { collectionTooLarge } from "../errors.js";
import type { BuiltinContext } from "./registry-types.js";

/** Raises eval_limit_error when a result of `size` elements (or characters) is too large. */
export function checkSize(ctx: BuiltinContext, name: string, size: number | bigint): void {
  if (size > ctx.maxCollectionSize) {
    throw collectionTooLarge(name, Number(size), ctx.maxCollectionSize);
  }
}

/** An array grown one element at a time, checked against the size limit and the deadline. */
export function pushBounded<T>(ctx: BuiltinContext, name: string, out: T[], item: T): void {
  if (out.length >= ctx.maxCollectionSize) {
    throw collectionTooLarge(name, out.length + 1, ctx.maxCollectionSize);
  }
  ctx.checkCancel();
  out.push(item);
}
