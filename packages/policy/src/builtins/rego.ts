/**
 * The `rego.*` builtins. `rego.metadata.chain` and `rego.metadata.rule` are answered by the
 * evaluator, which knows the current rule and its annotations; their entries here give the
 * type checker their signatures. `rego.parse_module` parses source into OPA's AST value.
 */
import { moduleToValue } from "../ast/json.js";
import { BuiltinError } from "../errors.js";
import { moduleComments } from "../syntax/module-comments.js";
import { parseModule } from "../syntax/module-parser.js";
import type { Value } from "../value/value.js";
import { asString } from "./args.js";
import type { BuiltinDef } from "./registry-types.js";

export const regoBuiltins: BuiltinDef[] = [
  {
    name: "rego.metadata.chain",
    args: [],
    result: "array",
    impl: () => undefined,
  },
  {
    name: "rego.metadata.rule",
    args: [],
    result: "any",
    impl: () => undefined,
  },
  {
    name: "rego.parse_module",
    args: ["string", "string"],
    result: "object",
    impl: ([file, source]) => {
      const name = asString("rego.parse_module", file as Value, 1);
      const text = asString("rego.parse_module", source as Value, 2);
      try {
        return moduleToValue(parseModule(name, text), text, moduleComments(name, text));
      } catch (e) {
        throw new BuiltinError(`rego.parse_module: ${String(e instanceof Error ? e.message : e)}`);
      }
    },
  },
];
