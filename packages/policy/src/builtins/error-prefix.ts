/**
 * OPA wraps every builtin so that a failure's message starts with the builtin's name
 * (`regex.match: error parsing regexp: ...`). Families here throw the underlying message and
 * get the prefix from this wrapper, which keeps OPA's quirks too: a message that already names
 * the builtin (units.parse) ends up named twice, exactly as OPA prints it.
 */
import { BuiltinError } from "../errors.js";
import type { BuiltinDef } from "./registry-types.js";

/** The definitions with `<name>: ` put in front of every BuiltinError their impl throws. */
export function withNamePrefix(defs: BuiltinDef[]): BuiltinDef[] {
  return defs.map((def) => ({
    ...def,
    impl: (args, ctx) => {
      try {
        return def.impl(args, ctx);
      } catch (e) {
        if (e instanceof BuiltinError) throw new BuiltinError(`${def.name}: ${e.message}`);
        throw e;
      }
    },
  }));
}
