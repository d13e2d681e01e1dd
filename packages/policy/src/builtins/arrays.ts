/**
 * Array builtins: `array.concat`, `array.slice`, `array.reverse` and `array.flatten`
 * (one level deep, as OPA's).
 */
import { toFloat } from "../value/number.js";
import type { Value } from "../value/value.js";
import { asArray, asInteger } from "./args.js";
import { checkSize } from "./limits.js";
import type { BuiltinDef } from "./registry-types.js";

/** Elements `start` (inclusive) to `stop` (exclusive), clamped to the array as OPA does. */
function slice(xs: Value[], start: number, stop: number): Value[] {
  const from = Math.max(0, start);
  const to = Math.min(xs.length, stop);
  return from >= to ? [] : xs.slice(from, to);
}

/** Nested arrays spliced in place, one level deep. */
function flattenOnce(xs: Value[]): Value[] {
  const out: Value[] = [];
  for (const x of xs) {
    if (Array.isArray(x)) out.push(...x);
    else out.push(x);
  }
  return out;
}

export const arraysBuiltins: BuiltinDef[] = [
  {
    name: "array.concat",
    args: ["array", "array"],
    result: "array",
    impl: ([a, b], ctx) => {
      const first = asArray("array.concat", a as Value, 1);
      const second = asArray("array.concat", b as Value, 2);
      checkSize(ctx, "array.concat", first.length + second.length);
      return [...first, ...second];
    },
  },
  {
    name: "array.slice",
    args: ["array", "number", "number"],
    result: "array",
    impl: ([a, start, stop]) => {
      const xs = asArray("array.slice", a as Value, 1);
      // Big integers clamp like any out-of-range index, so floats are precise enough here.
      const from = toFloat(asInteger("array.slice", start as Value, 2));
      const to = toFloat(asInteger("array.slice", stop as Value, 3));
      return slice(xs, from, to);
    },
  },
  {
    name: "array.reverse",
    args: ["array"],
    result: "array",
    impl: ([a]) => [...asArray("array.reverse", a as Value, 1)].reverse(),
  },
  {
    name: "array.flatten",
    args: ["array"],
    result: "array",
    impl: ([a]) => flattenOnce(asArray("array.flatten", a as Value, 1)),
  },
];
