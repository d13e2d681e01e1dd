/**
 * The GraphQL spec's validation rules for executable documents, with the messages OPA's
 * validator uses. Each rule is a set of Walker callbacks; `validateQuery` runs them all.
 */
import type { Definition, Directive, QueryDocument, Selection } from "./ast.js";
import { typeCompatible, typeName, typeString, ValueKind } from "./ast.js";
import type { GraphQLSyntaxError } from "./lexer.js";
import { overlappingFieldsRule } from "./overlapping-fields.js";
import type { Schema } from "./schema.js";
import { didYouMean, quotedOrList } from "./suggestions.js";
import { valuesRule } from "./values-rule.js";
import { type Rule, Walker } from "./walker.js";

const isLeaf = (d: Definition) => d.Kind === "SCALAR" || d.Kind === "ENUM";
const isComposite = (d: Definition) =>
  d.Kind === "OBJECT" || d.Kind === "INTERFACE" || d.Kind === "UNION";
const isInput = (d: Definition) =>
  d.Kind === "SCALAR" || d.Kind === "ENUM" || d.Kind === "INPUT_OBJECT";

const documentRules: Rule = {
  onOperation(w, op) {
    const roots: Record<string, Definition | undefined> = {
      query: w.schema.query,
      "": w.schema.query,
      mutation: w.schema.mutation,
      subscription: w.schema.subscription,
    };
    if (!roots[op.Operation])
      w.report(`Schema does not support operation type "${op.Operation}"`, op.pos);
    if (op.Name === "" && w.doc.Operations.length > 1) {
      w.report("This anonymous operation must be the only defined operation.", op.pos);
    }
    if (op.Name !== "" && w.doc.Operations.find((o) => o.Name === op.Name) !== op) {
      w.report(`There can be only one operation named "${op.Name}".`, op.pos);
    }
    const seen = new Set<string>();
    for (const v of op.VariableDefinitions) {
      if (seen.has(v.Variable))
        w.report(`There can be only one variable named "$${v.Variable}".`, v.pos);
      seen.add(v.Variable);
      const def = w.variableTypes.get(v);
      if (def && !isInput(def)) {
        w.report(
          `Variable "$${v.Variable}" cannot be non-input type "${typeString(v.Type)}".`,
          v.pos,
        );
      }
      if (!w.usedVariables.has(v)) {
        w.report(
          op.Name !== ""
            ? `Variable "$${v.Variable}" is never used in operation "${op.Name}".`
            : `Variable "$${v.Variable}" is never used.`,
          v.pos,
        );
      }
    }
    if (op.Operation === "subscription") checkSingleField(w, op.Name, op.SelectionSet, op.pos);
  },
  onVariable(w, v) {
    if (!w.schema.types.has(typeName(v.Type)))
      w.report(`Unknown type "${typeName(v.Type)}".`, v.pos);
  },
  onFragment(w, frag) {
    if (w.doc.Fragments.find((f) => f.Name === frag.Name) !== frag) {
      w.report(`There can be only one fragment named "${frag.Name}".`, frag.pos);
    }
    const def = w.schema.types.get(frag.TypeCondition);
    if (!def) w.report(`Unknown type "${frag.TypeCondition}".`, frag.pos);
    else if (!isComposite(def)) {
      w.report(
        `Fragment "${frag.Name}" cannot condition on non composite type "${frag.TypeCondition}".`,
        frag.pos,
      );
    }
    if (!usedFragments(w.doc).has(frag.Name))
      w.report(`Fragment "${frag.Name}" is never used.`, frag.pos);
    const cycle = findCycle(w.doc, frag.Name, [frag.Name]);
    if (cycle) {
      const via = cycle.length > 0 ? ` via ${cycle.join(", ")}` : "";
      w.report(`Cannot spread fragment "${frag.Name}" within itself${via}.`, frag.pos);
    }
  },
};

function checkSingleField(
  w: Walker,
  name: string,
  selections: Selection[],
  pos: GraphQLSyntaxError["pos"],
): void {
  const fields = new Set<string>();
  const collect = (sels: Selection[], seen: Set<string>) => {
    for (const s of sels) {
      if (s.kind === "field") fields.add(s.Alias || s.Name);
      else if (s.kind === "inline") collect(s.SelectionSet, seen);
      else if (!seen.has(s.Name)) {
        seen.add(s.Name);
        collect(w.fragment(s.Name)?.SelectionSet ?? [], seen);
      }
    }
  };
  collect(selections, new Set());
  if (fields.size > 1) {
    w.report(
      name === ""
        ? "Anonymous Subscription must select only one top level field."
        : `Subscription "${name}" must select only one top level field.`,
      pos,
    );
  }
}

function spreadNames(selections: Selection[], out: string[] = []): string[] {
  for (const s of selections) {
    if (s.kind === "spread") out.push(s.Name);
    else spreadNames(s.SelectionSet, out);
  }
  return out;
}

function usedFragments(doc: QueryDocument): Set<string> {
  const used = new Set<string>();
  const queue = doc.Operations.flatMap((op) => spreadNames(op.SelectionSet));
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (used.has(name)) continue;
    used.add(name);
    const frag = doc.Fragments.find((f) => f.Name === name);
    if (frag) queue.push(...spreadNames(frag.SelectionSet));
  }
  return used;
}

/** The spread path from `target` back to itself (names between), if any. */
function findCycle(doc: QueryDocument, target: string, path: string[]): string[] | undefined {
  const current = doc.Fragments.find((f) => f.Name === path[path.length - 1]);
  for (const name of spreadNames(current?.SelectionSet ?? [])) {
    if (name === target) return path.slice(1);
    if (path.includes(name)) continue;
    const found = findCycle(doc, target, [...path, name]);
    if (found) return found;
  }
  return undefined;
}

const selectionRules: Rule = {
  onField(w, field) {
    const info = w.fields.get(field);
    if (info?.parent && !info.definition) {
      w.report(
        `Cannot query field "${field.Name}" on type "${info.parent.Name}".${fieldHint(w.schema, info.parent, field.Name)}`,
        field.pos,
      );
    }
    const def = info?.definition;
    if (!def) return;
    if (info.parent) {
      for (const arg of field.Arguments) {
        if (!def.Arguments.some((a) => a.Name === arg.Name)) {
          w.report(
            `Unknown argument "${arg.Name}" on field "${info.parent.Name}.${field.Name}".${didYouMean(
              "Did you mean",
              arg.Name,
              def.Arguments.map((a) => a.Name),
            )}`,
            field.pos,
          );
        }
      }
    }
    for (const argDef of def.Arguments) {
      if (!argDef.Type.NonNull || argDef.DefaultValue) continue;
      if (!field.Arguments.some((a) => a.Name === argDef.Name)) {
        w.report(
          `Field "${field.Name}" argument "${argDef.Name}" of type "${typeString(argDef.Type)}" is required, but it was not provided.`,
          field.pos,
        );
      }
    }
    checkUniqueArguments(w, field.Arguments);
    const fieldType = w.schema.types.get(typeName(def.Type));
    if (!fieldType) return;
    if (isLeaf(fieldType) && field.SelectionSet.length > 0) {
      w.report(
        `Field "${field.Name}" must not have a selection since type "${fieldType.Name}" has no subfields.`,
        field.pos,
      );
    }
    if (!isLeaf(fieldType) && field.SelectionSet.length === 0) {
      w.report(
        `Field "${field.Name}" of type "${typeString(def.Type)}" must have a selection of subfields.`,
        field.pos,
      );
    }
  },
  onInlineFragment(w, inline) {
    if (inline.TypeCondition === "") return;
    const def = w.schema.types.get(inline.TypeCondition);
    if (!def) {
      w.report(`Unknown type "${inline.TypeCondition}".`, inline.pos);
      return;
    }
    if (!isComposite(def)) {
      w.report(
        `Fragment cannot condition on non composite type "${inline.TypeCondition}".`,
        inline.pos,
      );
      return;
    }
    const parent = w.inlines.get(inline)?.parent;
    if (parent && !canOverlap(w.schema, parent, def)) {
      w.report(
        `Fragment cannot be spread here as objects of type "${parent.Name}" can never be of type "${inline.TypeCondition}".`,
        inline.pos,
      );
    }
  },
  onFragmentSpread(w, spread) {
    const info = w.spreads.get(spread);
    if (!info?.definition) {
      w.report(`Unknown fragment "${spread.Name}".`, spread.pos);
      return;
    }
    const cond = info.definition.TypeCondition;
    const def = w.schema.types.get(cond);
    if (info.parent && def && isComposite(def) && !canOverlap(w.schema, info.parent, def)) {
      w.report(
        `Fragment "${spread.Name}" cannot be spread here as objects of type "${info.parent.Name}" can never be of type "${cond}".`,
        spread.pos,
      );
    }
  },
};

/**
 * The hint after "Cannot query field": object types (and their interfaces) under an abstract
 * type that do have the field, or else similarly spelled fields.
 */
function fieldHint(schema: Schema, parent: Definition, name: string): string {
  if (parent.Kind === "INTERFACE" || parent.Kind === "UNION") {
    const objects: string[] = [];
    const interfaceUse = new Map<string, number>();
    for (const t of schema.possibleTypes.get(parent.Name) ?? []) {
      if (!t.Fields.some((f) => f.Name === name)) continue;
      objects.push(t.Name);
      for (const i of t.Interfaces) {
        if (schema.types.get(i)?.Fields.some((f) => f.Name === name))
          interfaceUse.set(i, (interfaceUse.get(i) ?? 0) + 1);
      }
    }
    const types = [...interfaceUse.keys(), ...objects].sort((a, b) => {
      const diff = (interfaceUse.get(b) ?? 0) - (interfaceUse.get(a) ?? 0);
      return diff !== 0 ? diff : a < b ? -1 : a > b ? 1 : 0;
    });
    if (types.length > 0)
      return ` Did you mean to use an inline fragment on ${quotedOrList(types)}?`;
  }
  if (parent.Kind !== "OBJECT" && parent.Kind !== "INTERFACE") return "";
  return didYouMean(
    "Did you mean",
    name,
    parent.Fields.map((f) => f.Name),
  );
}

function possible(schema: Schema, def: Definition): string[] {
  if (def.Kind === "OBJECT") return [def.Name];
  return (schema.possibleTypes.get(def.Name) ?? []).map((d) => d.Name);
}

function canOverlap(schema: Schema, parent: Definition, fragmentType: Definition): boolean {
  if (!isComposite(parent)) return true;
  const parents = possible(schema, parent);
  return possible(schema, fragmentType).some((n) => parents.includes(n));
}

function checkUniqueArguments(
  w: Walker,
  args: { Name: string; pos?: GraphQLSyntaxError["pos"] }[],
): void {
  const seen = new Set<string>();
  for (const arg of args) {
    if (seen.has(arg.Name))
      w.report(`There can be only one argument named "${arg.Name}".`, arg.pos);
    seen.add(arg.Name);
  }
}

const directiveRules: Rule = {
  onDirective(w, dir) {
    const info = w.directives.get(dir);
    const def = info?.definition;
    if (!def) {
      w.report(`Unknown directive "@${dir.Name}".`, dir.pos);
      return;
    }
    if (!def.Locations.includes(info.location)) {
      w.report(`Directive "@${dir.Name}" may not be used on ${info.location}.`, dir.pos);
    }
    for (const arg of dir.Arguments) {
      if (!def.Arguments.some((a) => a.Name === arg.Name)) {
        w.report(`Unknown argument "${arg.Name}" on directive "@${dir.Name}".`, dir.pos);
      }
    }
    for (const argDef of def.Arguments) {
      if (!argDef.Type.NonNull || argDef.DefaultValue) continue;
      if (!dir.Arguments.some((a) => a.Name === argDef.Name)) {
        w.report(
          `Directive "@${dir.Name}" argument "${argDef.Name}" of type "${typeString(argDef.Type)}" is required, but it was not provided.`,
          dir.pos,
        );
      }
    }
    checkUniqueArguments(w, dir.Arguments);
  },
  onDirectiveList(w, dirs: Directive[]) {
    const seen = new Set<string>();
    for (const dir of dirs) {
      const def = w.directives.get(dir)?.definition;
      if (def?.IsRepeatable) continue;
      if (seen.has(dir.Name))
        w.report(`The directive "@${dir.Name}" can only be used once at this location.`, dir.pos);
      seen.add(dir.Name);
    }
  },
};

const variableRules: Rule = {
  onValue(w, value) {
    const info = w.values.get(value);
    if (value.Kind !== ValueKind.Variable || !w.currentOperation) return;
    if (!info?.variable) {
      const op = w.currentOperation.Name;
      w.report(
        op !== ""
          ? `Variable "$${value.Raw}" is not defined by operation "${op}".`
          : `Variable "$${value.Raw}" is not defined.`,
        value.pos,
      );
      return;
    }
    if (!info.expected) return;
    const expected = { ...info.expected };
    const def = info.variable.DefaultValue;
    if (def && def.Kind !== ValueKind.Null && expected.NonNull) expected.NonNull = false;
    if (!typeCompatible(info.variable.Type, expected)) {
      w.report(
        `Variable "$${value.Raw}" of type "${typeString(info.variable.Type)}" used in position expecting type "${typeString(info.expected)}".`,
        value.pos,
      );
    }
  },
};

/** Runs every rule; returns the errors in the order they were found. */
export function validateQuery(schema: Schema, doc: QueryDocument): GraphQLSyntaxError[] {
  const w = new Walker(schema, doc, [
    documentRules,
    selectionRules,
    directiveRules,
    variableRules,
    valuesRule,
    overlappingFieldsRule,
  ]);
  w.walk();
  return w.errors;
}
