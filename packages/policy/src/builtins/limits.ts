/**
 * Bounded work in builtins: a builtin whose result size comes from its operands checks the
 * size before building it (REGO_MAX_COLLECTION_SIZE), and loops whose length comes from the
 * operands check the query's deadline as they go. Both errors abort the query.
 */
import { getHeapStatistics } from "node:v8";
import { collectionTooLarge, RegoError } from "../errors.js";
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

/** What one element of a built array may take, at most (a pointer, or a boxed number). */
const BYTES_PER_ELEMENT = 16;

/**
 * Raises eval_limit_error when `count` elements could not be held in the memory the process
 * has left. For builtins that OPA bounds only by time and memory (`numbers.range`): running
 * out of heap would end the whole process, which no query may do.
 */
export function checkMemory(name: string, count: number | bigint): void {
  const { heap_size_limit: limit, used_heap_size: used } = getHeapStatistics();
  const left = Math.max(0, limit - used);
  if (Number(count) * BYTES_PER_ELEMENT <= left) return;
  const mib = Math.floor(left / 2 ** 20);
  throw new RegoError(
    "eval_limit_error",
    `${name}: ${count} elements would not fit in the memory left (about ${mib} MiB)`,
  );
}
