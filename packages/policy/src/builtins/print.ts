/**
 * `print` (and `internal.print`, what the compiler rewrites it to). The evaluator runs them
 * itself, since it knows which operands are undefined; these entries give the type checker
 * their signatures and stand in when no evaluator hook answers.
 */
import type { BuiltinDef } from "./registry-types.js";

export const printBuiltins: BuiltinDef[] = [
  {
    name: "print",
    args: [],
    result: "boolean",
    impl: () => true,
  },
  {
    name: "internal.print",
    args: ["array"],
    result: "boolean",
    impl: () => true,
  },
];
