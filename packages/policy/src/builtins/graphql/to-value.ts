/**
 * GraphQL syntax trees as Rego values, in the JSON shape OPA produces: gqlparser's struct
 * field names, with nulls, empty lists and empty objects left out, and empty strings and
 * false booleans kept.
 */

import type {
  Argument,
  ArgumentDefinition,
  ChildValue,
  Definition,
  Directive,
  DirectiveDefinition,
  FieldDefinition,
  FragmentDefinition,
  GqlType,
  GqlValue,
  OperationDefinition,
  QueryDocument,
  SchemaDefinition,
  SchemaDocument,
  Selection,
  VariableDefinition,
} from "../../lib/graphql/ast.js";
import { RegoObject, type Value } from "../../value/value.js";

type Entry = [string, Value | undefined];

/** Builds an object, dropping absent values and empty arrays/objects as OPA's pruning does. */
function obj(entries: Entry[]): RegoObject | undefined {
  const o = new RegoObject();
  for (const [k, v] of entries) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (v instanceof RegoObject && v.size === 0) continue;
    o.set(k, v);
  }
  return o;
}

function list<T>(items: T[] | undefined, convert: (item: T) => Value | undefined): Value[] {
  const out: Value[] = [];
  for (const item of items ?? []) {
    const v = convert(item);
    if (v !== undefined) out.push(v);
  }
  return out;
}

function typeValue(t: GqlType | undefined): Value | undefined {
  if (!t) return undefined;
  return obj([
    ["NamedType", t.NamedType],
    ["Elem", typeValue(t.Elem)],
    ["NonNull", t.NonNull],
  ]);
}

function valueValue(v: GqlValue | undefined): Value | undefined {
  if (!v) return undefined;
  return obj([
    ["Raw", v.Raw],
    ["Children", list(v.Children, childValue)],
    ["Kind", v.Kind],
    ["ExpectedTypeHasDefault", false],
  ]);
}

function childValue(c: ChildValue): Value | undefined {
  return obj([
    ["Name", c.Name],
    ["Value", valueValue(c.Value)],
  ]);
}

function argumentValue(a: Argument): Value | undefined {
  return obj([
    ["Name", a.Name],
    ["Value", valueValue(a.Value)],
  ]);
}

function directiveValue(d: Directive): Value | undefined {
  return obj([
    ["Name", d.Name],
    ["Arguments", list(d.Arguments, argumentValue)],
    ["Location", ""],
  ]);
}

function selectionValue(s: Selection): Value | undefined {
  const directives = list(s.Directives, directiveValue);
  if (s.kind === "spread")
    return obj([
      ["Name", s.Name],
      ["Directives", directives],
    ]);
  if (s.kind === "inline") {
    return obj([
      ["TypeCondition", s.TypeCondition],
      ["Directives", directives],
      ["SelectionSet", list(s.SelectionSet, selectionValue)],
    ]);
  }
  return obj([
    ["Alias", s.Alias],
    ["Name", s.Name],
    ["Arguments", list(s.Arguments, argumentValue)],
    ["Directives", directives],
    ["SelectionSet", list(s.SelectionSet, selectionValue)],
  ]);
}

function variableValue(v: VariableDefinition): Value | undefined {
  return obj([
    ["Variable", v.Variable],
    ["Type", typeValue(v.Type)],
    ["DefaultValue", valueValue(v.DefaultValue)],
    ["Directives", list(v.Directives, directiveValue)],
    ["Used", false],
  ]);
}

function operationValue(op: OperationDefinition): Value | undefined {
  return obj([
    ["Operation", op.Operation],
    ["Name", op.Name],
    ["VariableDefinitions", list(op.VariableDefinitions, variableValue)],
    ["Directives", list(op.Directives, directiveValue)],
    ["SelectionSet", list(op.SelectionSet, selectionValue)],
  ]);
}

function fragmentValue(f: FragmentDefinition): Value | undefined {
  return obj([
    ["Name", f.Name],
    ["VariableDefinition", list(f.VariableDefinition, variableValue)],
    ["TypeCondition", f.TypeCondition],
    ["Directives", list(f.Directives, directiveValue)],
    ["SelectionSet", list(f.SelectionSet, selectionValue)],
  ]);
}

/** A query document as OPA's `graphql.parse_query` returns it. */
export function queryDocumentToValue(doc: QueryDocument): Value {
  return (
    obj([
      ["Operations", list(doc.Operations, operationValue)],
      ["Fragments", list(doc.Fragments, fragmentValue)],
    ]) ?? new RegoObject()
  );
}

function fieldDefinitionValue(f: FieldDefinition | ArgumentDefinition): Value | undefined {
  return obj([
    ["Description", f.Description],
    ["Name", f.Name],
    ["Arguments", "Arguments" in f ? list(f.Arguments, fieldDefinitionValue) : []],
    ["DefaultValue", valueValue(f.DefaultValue)],
    ["Type", typeValue(f.Type)],
    ["Directives", list(f.Directives, directiveValue)],
  ]);
}

function definitionValue(d: Definition): Value | undefined {
  return obj([
    ["Kind", d.Kind],
    ["Description", d.Description],
    ["Name", d.Name],
    ["Directives", list(d.Directives, directiveValue)],
    ["Interfaces", d.Interfaces],
    ["Fields", list(d.Fields, fieldDefinitionValue)],
    ["Types", d.Types],
    [
      "EnumValues",
      list(d.EnumValues, (e) =>
        obj([
          ["Description", e.Description],
          ["Name", e.Name],
          ["Directives", list(e.Directives, directiveValue)],
        ]),
      ),
    ],
    ["BuiltIn", d.BuiltIn],
  ]);
}

function directiveDefinitionValue(d: DirectiveDefinition): Value | undefined {
  return obj([
    ["Description", d.Description],
    ["Name", d.Name],
    ["Arguments", list(d.Arguments, fieldDefinitionValue)],
    ["Locations", d.Locations],
    ["IsRepeatable", d.IsRepeatable],
  ]);
}

function schemaDefinitionValue(s: SchemaDefinition): Value | undefined {
  return obj([
    ["Description", s.Description],
    ["Directives", list(s.Directives, directiveValue)],
    [
      "OperationTypes",
      list(s.OperationTypes, (o) =>
        obj([
          ["Operation", o.Operation],
          ["Type", o.Type],
        ]),
      ),
    ],
  ]);
}

/** A schema document as OPA's `graphql.parse_schema` returns it. */
export function schemaDocumentToValue(doc: SchemaDocument): Value {
  return (
    obj([
      ["Schema", list(doc.Schema, schemaDefinitionValue)],
      ["SchemaExtension", list(doc.SchemaExtension, schemaDefinitionValue)],
      ["Directives", list(doc.Directives, directiveDefinitionValue)],
      ["Definitions", list(doc.Definitions, definitionValue)],
      ["Extensions", list(doc.Extensions, definitionValue)],
    ]) ?? new RegoObject()
  );
}
