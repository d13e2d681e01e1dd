/**
 * Rego objects in OPA's GraphQL AST shape (as produced by to-value.ts, or written by hand)
 * back into syntax trees. Missing keys take Go's zero values, as decoding JSON into
 * gqlparser's structs would; positions are unknown.
 */

import {
  type Argument,
  type Definition,
  type DefinitionKind,
  type Directive,
  type FieldDefinition,
  type GqlType,
  type GqlValue,
  newDefinition,
  type QueryDocument,
  type SchemaDefinition,
  type SchemaDocument,
  type Selection,
  type VariableDefinition,
} from "../../lib/graphql/ast.js";
import { RegoObject, type Value } from "../../value/value.js";

function field(o: Value | undefined, key: string): Value | undefined {
  return o instanceof RegoObject ? o.get(key) : undefined;
}

function str(o: Value | undefined, key: string): string {
  const v = field(o, key);
  return typeof v === "string" ? v : "";
}

function bool(o: Value | undefined, key: string): boolean {
  return field(o, key) === true;
}

function arr<T>(o: Value | undefined, key: string, convert: (v: Value) => T): T[] {
  const v = field(o, key);
  return Array.isArray(v) ? v.map(convert) : [];
}

function strings(o: Value | undefined, key: string): string[] {
  return arr(o, key, (v) => (typeof v === "string" ? v : ""));
}

function toType(v: Value | undefined): GqlType {
  const elem = field(v, "Elem");
  return {
    NamedType: str(v, "NamedType"),
    Elem: elem instanceof RegoObject ? toType(elem) : undefined,
    NonNull: bool(v, "NonNull"),
  };
}

function toValue(v: Value | undefined): GqlValue {
  const kind = field(v, "Kind");
  return {
    Raw: str(v, "Raw"),
    Kind: typeof kind === "number" ? kind : 0,
    Children: arr(v, "Children", (c) => ({
      Name: str(c, "Name"),
      Value: toValue(field(c, "Value")),
    })),
  };
}

function optionalValue(o: Value, key: string): GqlValue | undefined {
  const v = field(o, key);
  return v instanceof RegoObject ? toValue(v) : undefined;
}

function toArgument(v: Value): Argument {
  return { Name: str(v, "Name"), Value: toValue(field(v, "Value")) };
}

function toDirective(v: Value): Directive {
  return { Name: str(v, "Name"), Arguments: arr(v, "Arguments", toArgument) };
}

function toSelection(v: Value): Selection {
  const has = (k: string) => field(v, k) !== undefined;
  const directives = arr(v, "Directives", toDirective);
  if (has("TypeCondition") || (!has("Name") && !has("Alias"))) {
    return {
      kind: "inline",
      TypeCondition: str(v, "TypeCondition"),
      Directives: directives,
      SelectionSet: arr(v, "SelectionSet", toSelection),
    };
  }
  if (has("Alias") || has("Arguments") || has("SelectionSet")) {
    return {
      kind: "field",
      Alias: str(v, "Alias"),
      Name: str(v, "Name"),
      Arguments: arr(v, "Arguments", toArgument),
      Directives: directives,
      SelectionSet: arr(v, "SelectionSet", toSelection),
    };
  }
  return { kind: "spread", Name: str(v, "Name"), Directives: directives };
}

function toVariable(v: Value): VariableDefinition {
  return {
    Variable: str(v, "Variable"),
    Type: toType(field(v, "Type")),
    DefaultValue: optionalValue(v, "DefaultValue"),
    Directives: arr(v, "Directives", toDirective),
  };
}

/** A query document from its AST object. */
export function queryDocumentFromValue(v: Value): QueryDocument {
  return {
    Operations: arr(v, "Operations", (op) => ({
      Operation: str(op, "Operation"),
      Name: str(op, "Name"),
      VariableDefinitions: arr(op, "VariableDefinitions", toVariable),
      Directives: arr(op, "Directives", toDirective),
      SelectionSet: arr(op, "SelectionSet", toSelection),
    })),
    Fragments: arr(v, "Fragments", (f) => ({
      Name: str(f, "Name"),
      VariableDefinition: arr(f, "VariableDefinition", toVariable),
      TypeCondition: str(f, "TypeCondition"),
      Directives: arr(f, "Directives", toDirective),
      SelectionSet: arr(f, "SelectionSet", toSelection),
    })),
  };
}

function toFieldDefinition(v: Value): FieldDefinition {
  return {
    Description: str(v, "Description"),
    Name: str(v, "Name"),
    Arguments: arr(v, "Arguments", toFieldDefinition),
    DefaultValue: optionalValue(v, "DefaultValue"),
    Type: toType(field(v, "Type")),
    Directives: arr(v, "Directives", toDirective),
  };
}

function toDefinition(v: Value): Definition {
  const def = newDefinition(str(v, "Kind") as DefinitionKind, str(v, "Name"));
  def.Description = str(v, "Description");
  def.Directives = arr(v, "Directives", toDirective);
  def.Interfaces = strings(v, "Interfaces");
  def.Fields = arr(v, "Fields", toFieldDefinition);
  def.Types = strings(v, "Types");
  def.EnumValues = arr(v, "EnumValues", (e) => ({
    Description: str(e, "Description"),
    Name: str(e, "Name"),
    Directives: arr(e, "Directives", toDirective),
  }));
  def.BuiltIn = bool(v, "BuiltIn");
  return def;
}

function toSchemaDefinition(v: Value): SchemaDefinition {
  return {
    Description: str(v, "Description"),
    Directives: arr(v, "Directives", toDirective),
    OperationTypes: arr(v, "OperationTypes", (o) => ({
      Operation: str(o, "Operation"),
      Type: str(o, "Type"),
    })),
  };
}

/** A schema document from its AST object. */
export function schemaDocumentFromValue(v: Value): SchemaDocument {
  return {
    Schema: arr(v, "Schema", toSchemaDefinition),
    SchemaExtension: arr(v, "SchemaExtension", toSchemaDefinition),
    Directives: arr(v, "Directives", (d) => ({
      Description: str(d, "Description"),
      Name: str(d, "Name"),
      Arguments: arr(d, "Arguments", toFieldDefinition),
      Locations: strings(d, "Locations"),
      IsRepeatable: bool(d, "IsRepeatable"),
    })),
    Definitions: arr(v, "Definitions", toDefinition),
    Extensions: arr(v, "Extensions", toDefinition),
  };
}
