/**
 * Comparison operators and the internal builtins the language itself needs (`print`,
 * `trace`, `rego.*`, `opa.runtime`, `http.send` from http-send.ts). `print` and `rego.metadata.*` are evaluated by the
 * evaluator, which knows about undefined operands and the current rule; their entries here
 * give the type checker their signatures.
 */
import { moduleToValue } from "../ast/json.js";
import { BuiltinError } from "../errors.js";
import { moduleComments } from "../syntax/module-comments.js";
import { parseModule } from "../syntax/module-parser.js";
import { compare, equal, RegoObject, type Value } from "../value/value.js";
import { asString } from "./args.js";
import { httpSendBuiltin } from "./http-send.js";
import type { BuiltinDef } from "./registry-types.js";

function comparison(name: string, test: (c: number) => boolean): BuiltinDef {
  return {
    name,
    args: ["any", "any"],
    result: "boolean",
    impl: ([a, b]) => test(compare(a as Value, b as Value)),
  };
}

export const comparisonBuiltins: BuiltinDef[] = [
  {
    name: "equal",
    args: ["any", "any"],
    result: "boolean",
    impl: ([a, b]) => equal(a as Value, b as Value),
  },
  {
    name: "neq",
    args: ["any", "any"],
    result: "boolean",
    impl: ([a, b]) => !equal(a as Value, b as Value),
  },
  comparison("lt", (c) => c < 0),
  comparison("lte", (c) => c <= 0),
  comparison("gt", (c) => c > 0),
  comparison("gte", (c) => c >= 0),
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
    name: "opa.runtime",
    args: [],
    result: "object",
    impl: () => new RegoObject(),
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
  httpSendBuiltin,
];
