/** Comparison operators: `==` and `!=` by value, `<`, `<=`, `>`, `>=` by OPA's total order. */
import { compare, equal, type Value } from "../value/value.js";
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
];
