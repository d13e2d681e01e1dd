/**
 * Deprecated builtins (`any`, `all`, `re_match`, the `cast_*` family, …): OPA refuses calls
 * to them in strict mode and always in Rego v1 modules. Runs on resolved rules, so a user
 * function of the same name (`data.pkg.any`) is never mistaken for the builtin.
 */
import type { Expr, Module, Term } from "../../ast/nodes.js";
import { RegoError } from "../../errors.js";
import { visitRule } from "../calls.js";

/** The builtins OPA marks deprecated. */
export const deprecatedBuiltins: ReadonlySet<string> = new Set([
  "all",
  "any",
  "cast_array",
  "cast_boolean",
  "cast_null",
  "cast_object",
  "cast_set",
  "cast_string",
  "net.cidr_overlap",
  "re_match",
  "set_diff",
]);

/** `deprecated built-in function calls in expression: <name>` for each call of one. */
export function deprecatedCalls(
  module: Module,
  deprecated: ReadonlySet<string>,
  errors: RegoError[],
): void {
  for (const rule of module.rules) {
    // A call that is a whole expression is reported where the expression starts (`not` too).
    const statements = new Map<Term, Expr>();
    const expr = (e: Expr) => {
      if (e.type === "term") statements.set(e.term, e);
    };
    const term = (t: Term) => {
      if (t.type !== "call" || !deprecated.has(t.name)) return;
      const loc = statements.get(t)?.loc ?? t.loc;
      errors.push(
        new RegoError(
          "rego_type_error",
          `deprecated built-in function calls in expression: ${t.name}`,
          {
            file: loc.file,
            row: loc.row,
            col: loc.col,
          },
        ),
      );
    };
    visitRule(rule, { expr, term });
  }
}
