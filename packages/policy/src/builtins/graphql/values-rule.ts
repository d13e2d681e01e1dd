/**
 * Literal values must fit the type expected where they appear (ValuesOfCorrectType), and
 * input objects may name each field once (UniqueInputFieldNames).
 */
import type { GqlValue } from "./ast.js";
import { typeString, ValueKind, valueString } from "./ast.js";
import type { Rule, Walker } from "./walker.js";

const builtinScalars = ["Int", "Float", "String", "Boolean", "ID"];

function unexpectedType(w: Walker, value: GqlValue, expected: string): void {
  w.report(`Expected value of type "${expected}", found ${valueString(value)}.`, value.pos);
}

function checkObject(w: Walker, value: GqlValue): void {
  const def = w.values.get(value)?.definition;
  if (!def) return;
  for (const field of def.Fields) {
    if (!field.Type.NonNull || field.DefaultValue) continue;
    if (!value.Children.some((c) => c.Name === field.Name)) {
      w.report(
        `Field "${def.Name}.${field.Name}" of required type "${typeString(field.Type)}" was not provided.`,
        value.pos,
      );
    }
  }
  for (const child of value.Children) {
    if (!def.Fields.some((f) => f.Name === child.Name)) {
      w.report(`Field "${child.Name}" is not defined by type "${def.Name}".`, child.pos);
    }
  }
}

function checkScalarOrEnum(w: Walker, value: GqlValue, expected: string): void {
  const def = w.values.get(value)?.definition;
  if (!def) return;
  const is = (...names: string[]) => names.includes(def.Name);
  switch (value.Kind) {
    case ValueKind.Int:
      if (!is("Int", "Float", "ID")) unexpectedType(w, value, expected);
      break;
    case ValueKind.Float:
      if (!is("Float")) unexpectedType(w, value, expected);
      break;
    case ValueKind.String:
    case ValueKind.Block:
      if (def.Kind === "ENUM") {
        w.report(
          `Enum "${expected}" cannot represent non-enum value: ${valueString(value)}.`,
          value.pos,
        );
      } else if (!is("String", "ID")) unexpectedType(w, value, expected);
      break;
    case ValueKind.Enum:
      if (def.Kind !== "ENUM") unexpectedType(w, value, expected);
      else if (!def.EnumValues.some((e) => e.Name === value.Raw)) {
        w.report(`Value "${value.Raw}" does not exist in "${expected}" enum.`, value.pos);
      }
      break;
    case ValueKind.Boolean:
      if (!is("Boolean")) unexpectedType(w, value, expected);
      break;
  }
}

export const valuesRule: Rule = {
  onValue(w, value) {
    if (value.Kind === ValueKind.Object) {
      const seen = new Set<string>();
      for (const child of value.Children) {
        if (seen.has(child.Name))
          w.report(`There can be only one input field named "${child.Name}".`, child.pos);
        seen.add(child.Name);
      }
    }
    const info = w.values.get(value);
    if (!info?.definition || !info.expected) return;
    const expected = typeString(info.expected);
    if (value.Kind === ValueKind.Null) {
      if (info.expected.NonNull) unexpectedType(w, value, expected);
      return;
    }
    if (value.Kind === ValueKind.Variable) return;
    if (info.definition.Kind === "SCALAR" && !builtinScalars.includes(info.definition.Name)) return;
    if (value.Kind === ValueKind.List) {
      if (!info.expected.Elem) unexpectedType(w, value, expected);
      return;
    }
    if (value.Kind === ValueKind.Object) {
      if (info.definition.Kind !== "INPUT_OBJECT") unexpectedType(w, value, expected);
      else checkObject(w, value);
      return;
    }
    checkScalarOrEnum(w, value, expected);
  },
};
