/** `trace`: a note for the query's tracer (`--explain`), always true. */
import type { Value } from "../value/value.js";
import { asString } from "./args.js";
import type { BuiltinDef } from "./registry-types.js";

export const traceBuiltins: BuiltinDef[] = [
  {
    name: "trace",
    args: ["string"],
    result: "boolean",
    impl: ([note], ctx) => {
      const text = asString("trace", note as Value, 1);
      ctx.trace?.(text);
      return true;
    },
  },
];
