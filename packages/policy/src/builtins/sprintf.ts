/**
 * sprintf with Go's fmt verbs. OPA hands Go integers (int64 or big.Int), float64s and
 * strings to fmt.Sprintf, and every other value as its Rego text, so `%d` of a string
 * prints Go's `%!d(string=...)` and `%v` of an array prints `["a", 1]`. Go's fmt itself is
 * @quintet/gostd/fmt.
 */
import { type GoArg, goSprintf } from "@quintet/gostd/fmt";
import { formatValue } from "../value/format.js";
import { DecimalNumber } from "../value/number.js";
import type { Value } from "../value/value.js";
import { asArray, asString } from "./args.js";
import { withNamePrefix } from "./error-prefix.js";
import { checkSize } from "./limits.js";
import type { BuiltinContext, BuiltinDef } from "./registry-types.js";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function toGoArg(v: Value): GoArg {
  if (typeof v === "string") return { kind: "string", value: v };
  if (typeof v === "bigint") {
    return { kind: v >= INT64_MIN && v <= INT64_MAX ? "int" : "big", value: v };
  }
  if (typeof v === "number") {
    if (Number.isSafeInteger(v)) return { kind: "int", value: BigInt(v) };
    if (Number.isFinite(v)) return { kind: "float", value: v };
    return { kind: "string", value: String(v) };
  }
  // OPA hands a number whose text is not an integer's to Go as its float64, so a kept text
  // (`1.50`, `2.0`, 0.10000000000000000001) prints as the double; text beyond the doubles'
  // range (2e308) goes as the text itself.
  if (v instanceof DecimalNumber) {
    return Number.isFinite(v.value)
      ? { kind: "float", value: v.value }
      : { kind: "string", value: v.text };
  }
  return { kind: "string", value: formatValue(v) };
}

function sprintf(args: Value[], ctx: BuiltinContext): Value {
  const format = asString("sprintf", args[0] as Value, 1);
  const values = asArray("sprintf", args[1] as Value, 2);
  // Each directive may pad to a million characters: the result is bounded as it grows.
  return goSprintf(format, values.map(toGoArg), (length) => {
    ctx.checkCancel();
    checkSize(ctx, "sprintf", length);
  });
}

export const sprintfBuiltins: BuiltinDef[] = withNamePrefix([
  { name: "sprintf", args: ["string", "array"], result: "string", impl: sprintf },
]);
