/**
 * GraphQL syntax trees, shaped after gqlparser's Go structs because OPA returns those structs
 * as JSON: field names here are the JSON keys (see to-value.ts). `pos` is never serialised.
 */
import type { Position } from "./lexer.js";

/** gqlparser's ValueKind numbering, which appears as `Kind` in OPA's output. */
export const ValueKind = {
  Variable: 0,
  Int: 1,
  Float: 2,
  String: 3,
  Block: 4,
  Boolean: 5,
  Null: 6,
  Enum: 7,
  List: 8,
  Object: 9,
} as const;

export interface GqlType {
  NamedType: string;
  Elem?: GqlType;
  NonNull: boolean;
  pos?: Position;
}

export interface ChildValue {
  Name: string;
  Value: GqlValue;
  pos?: Position;
}

export interface GqlValue {
  Raw: string;
  Children: ChildValue[];
  Kind: number;
  pos?: Position;
}

export interface Argument {
  Name: string;
  Value: GqlValue;
  pos?: Position;
}

export interface Directive {
  Name: string;
  Arguments: Argument[];
  pos?: Position;
}

export interface Field {
  kind: "field";
  Alias: string;
  Name: string;
  Arguments: Argument[];
  Directives: Directive[];
  SelectionSet: Selection[];
  pos?: Position;
}

export interface FragmentSpread {
  kind: "spread";
  Name: string;
  Directives: Directive[];
  pos?: Position;
}

export interface InlineFragment {
  kind: "inline";
  TypeCondition: string;
  Directives: Directive[];
  SelectionSet: Selection[];
  pos?: Position;
}

export type Selection = Field | FragmentSpread | InlineFragment;

export interface VariableDefinition {
  Variable: string;
  Type: GqlType;
  DefaultValue?: GqlValue;
  Directives: Directive[];
  pos?: Position;
}

export interface OperationDefinition {
  Operation: string;
  Name: string;
  VariableDefinitions: VariableDefinition[];
  Directives: Directive[];
  SelectionSet: Selection[];
  pos?: Position;
}

export interface FragmentDefinition {
  Name: string;
  VariableDefinition: VariableDefinition[];
  TypeCondition: string;
  Directives: Directive[];
  SelectionSet: Selection[];
  pos?: Position;
}

export interface QueryDocument {
  Operations: OperationDefinition[];
  Fragments: FragmentDefinition[];
}

export interface ArgumentDefinition {
  Description: string;
  Name: string;
  DefaultValue?: GqlValue;
  Type: GqlType;
  Directives: Directive[];
  pos?: Position;
}

export interface FieldDefinition {
  Description: string;
  Name: string;
  Arguments: ArgumentDefinition[];
  DefaultValue?: GqlValue;
  Type: GqlType;
  Directives: Directive[];
  pos?: Position;
}

export interface EnumValueDefinition {
  Description: string;
  Name: string;
  Directives: Directive[];
  pos?: Position;
}

export type DefinitionKind = "SCALAR" | "OBJECT" | "INTERFACE" | "UNION" | "ENUM" | "INPUT_OBJECT";

export interface Definition {
  Kind: DefinitionKind;
  Description: string;
  Name: string;
  Directives: Directive[];
  Interfaces: string[];
  Fields: FieldDefinition[];
  Types: string[];
  EnumValues: EnumValueDefinition[];
  BuiltIn: boolean;
  pos?: Position;
}

export interface DirectiveDefinition {
  Description: string;
  Name: string;
  Arguments: ArgumentDefinition[];
  Locations: string[];
  IsRepeatable: boolean;
  pos?: Position;
}

export interface OperationTypeDefinition {
  Operation: string;
  Type: string;
  pos?: Position;
}

export interface SchemaDefinition {
  Description: string;
  Directives: Directive[];
  OperationTypes: OperationTypeDefinition[];
  pos?: Position;
}

export interface SchemaDocument {
  Schema: SchemaDefinition[];
  SchemaExtension: SchemaDefinition[];
  Directives: DirectiveDefinition[];
  Definitions: Definition[];
  Extensions: Definition[];
}

/** Type name at the bottom of list wrappers. */
export function typeName(t: GqlType): string {
  return t.Elem ? typeName(t.Elem) : t.NamedType;
}

/**
 * Whether a value of type `t` may be used where `other` is expected (same named type and
 * list shape; a non-null position needs a non-null type).
 */
export function typeCompatible(t: GqlType, other: GqlType): boolean {
  if (t.NamedType !== other.NamedType) return false;
  if (t.Elem && !other.Elem) return false;
  if (t.Elem && other.Elem && !typeCompatible(t.Elem, other.Elem)) return false;
  return other.NonNull ? t.NonNull : true;
}

/** SDL text of a type reference, e.g. `[Int!]!`. */
export function typeString(t: GqlType): string {
  const inner = t.Elem ? `[${typeString(t.Elem)}]` : t.NamedType;
  return t.NonNull ? `${inner}!` : inner;
}

/** A new, empty definition of the given kind. */
export function newDefinition(kind: DefinitionKind, name: string, pos?: Position): Definition {
  return {
    Kind: kind,
    Description: "",
    Name: name,
    Directives: [],
    Interfaces: [],
    Fields: [],
    Types: [],
    EnumValues: [],
    BuiltIn: false,
    pos,
  };
}

/** How gqlparser prints a value literal in messages. */
export function valueString(v: GqlValue): string {
  switch (v.Kind) {
    case ValueKind.Variable:
      return `$${v.Raw}`;
    case ValueKind.String:
    case ValueKind.Block:
      return JSON.stringify(v.Raw);
    case ValueKind.List:
      return `[${v.Children.map((c) => valueString(c.Value)).join(", ")}]`;
    case ValueKind.Object:
      return `{${v.Children.map((c) => `${c.Name}: ${valueString(c.Value)}`).join(", ")}}`;
    default:
      return v.Raw;
  }
}
