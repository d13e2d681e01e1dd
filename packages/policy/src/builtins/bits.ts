/**
 * Bitwise builtins (`bits.*`) on integers of any size, with two's-complement semantics for
 * negative numbers as Go's big.Int gives them.
 */
import { BuiltinTypeError } from "../errors.js";
import { normalizeNumber, toBigInt } from "../value/number.js";
import type { Value } from "../value/value.js";
import { asInteger } from "./args.js";
import { checkSize } from "./limits.js";
import type { BuiltinContext, BuiltinDef } from "./registry-types.js";

/** Integer operand `pos` of `fn` as a bigint. */
function bigOperand(fn: string, v: Value, pos: number): bigint {
  return toBigInt(asInteger(fn, v, pos));
}

/** A builtin of two integers. */
function binary(
  name: string,
  op: (a: bigint, b: bigint, ctx: BuiltinContext) => bigint,
): BuiltinDef {
  return {
    name,
    args: ["number", "number"],
    result: "number",
    impl: ([a, b], ctx) =>
      normalizeNumber(op(bigOperand(name, a as Value, 1), bigOperand(name, b as Value, 2), ctx)),
  };
}

/** Decimal digits per bit: a result of n bits is written with about n * log10(2) digits. */
const digitsPerBit = Math.log10(2);

/**
 * A left shift by a huge count builds a number whose decimal text alone would take minutes to
 * write (1 << 1e9 has 301 million digits), so its digit count is held to the size limit.
 */
function leftShift(a: bigint, n: bigint, ctx: BuiltinContext): bigint {
  const bits = BigInt(a.toString(2).length) + n;
  checkSize(ctx, "bits.lsh", BigInt(Math.ceil(Number(bits) * digitsPerBit)));
  return a << n;
}

/** A shift builtin: the shift count must be a non-negative integer. */
function shift(
  name: string,
  op: (a: bigint, n: bigint, ctx: BuiltinContext) => bigint,
): BuiltinDef {
  return binary(name, (a, n, ctx) => {
    if (n < 0n) {
      throw new BuiltinTypeError(
        `${name}: operand 2 must be an unsigned integer number but got a negative integer`,
      );
    }
    return op(a, n, ctx);
  });
}

export const bitsBuiltins: BuiltinDef[] = [
  binary("bits.or", (a, b) => a | b),
  binary("bits.and", (a, b) => a & b),
  binary("bits.xor", (a, b) => a ^ b),
  {
    name: "bits.negate",
    args: ["number"],
    result: "number",
    impl: ([a]) => normalizeNumber(~bigOperand("bits.negate", a as Value, 1)),
  },
  shift("bits.lsh", leftShift),
  shift("bits.rsh", (a, n) => a >> n),
];
