/**
 * OPA reports a failing builtin as `<name>: <message>`. Families whose helpers throw plain
 * messages (shared by several builtins) wrap their definitions with this to add the name once.
 */
import { BuiltinError, BuiltinTypeError, isStackOverflow, RegoError } from "../../errors.js";
import type { BuiltinDef } from "../registry-types.js";

/** The same builtin, with its failures named after it; type errors pass through unchanged. */
export function namedErrors(def: BuiltinDef): BuiltinDef {
  const prefix = `${def.name}: `;
  return {
    ...def,
    impl(args, ctx) {
      try {
        return def.impl(args, ctx);
      } catch (e) {
        // Type errors, query-level errors (limits, cancellation) and stack overflows stay as is.
        if (
          e instanceof BuiltinTypeError ||
          e instanceof RegoError ||
          !(e instanceof Error) ||
          isStackOverflow(e)
        )
          throw e;
        if (e instanceof BuiltinError && e.message.startsWith(prefix)) throw e;
        throw new BuiltinError(`${prefix}${e.message}`);
      }
    },
  };
}
