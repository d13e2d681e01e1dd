/**
 * Literal values must fit the type expected where they appear (ValuesOfCorrectType), and
 * input objects may name each field once (UniqueInputFieldNames).
 */
import type { GqlValue } from "./ast.js";
import { typeString, ValueKind, valueString } from "./ast.js";
import type { Rule, Walker } from "./walker.js";

const builtinScalars = ["Int", "Float", "String", "Boolean", "ID"];

/** The scalar-specific wording the validator uses for a literal of the wrong kind. */
function unexpectedTypeMessage(w: Walker, value: GqlValue, expected: string): string {
  const shown = valueString(value);
  switch (expected) {
    case "Int":
    case "Int!":
      return `Int cannot represent non-integer value: ${shown}`;
    case "String":
    case "String!":
    case "[String]":
      return `String cannot represent a non string value: ${shown}`;
    case "Boolean":
    case "Boolean!":
      return `Boolean cannot represent a non boolean value: ${shown}`;
    case "Float":
    case "Float!":
      return `Float cannot represent non numeric value: ${shown}`;
    case "ID":
    case "ID!":
      return `ID cannot represent a non-string and non-integer value: ${shown}`;
  }
  if (w.values.get(value)?.definition?.Kind === "ENUM") {
    return `Enum "${expected}" cannot represent non-enum value: ${shown}.`;
  }
  return `Expected type "${expected}", found ${shown}.`;
}

function unexpectedType(w: Walker, value: GqlValue, expected: string): void {
  w.report(unexpectedTypeMessage(w, value, expected), value.pos);
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
      if (info.expected.NonNull) {
        w.report(`Expected value of type "${expected}", found ${valueString(value)}.`, value.pos);
      }
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
