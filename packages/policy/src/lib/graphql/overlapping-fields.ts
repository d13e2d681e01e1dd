/**
 * OverlappingFieldsCanBeMerged: fields that share a response name in one selection set must
 * be the same field with the same arguments and compatible types, unless they can never
 * apply to the same object.
 */
import type { Definition, Field, FieldDefinition, GqlType, Selection } from "./ast.js";
import { typeName, typeString, valueString } from "./ast.js";
import type { Schema } from "./schema.js";
import { type Rule, typenameField, type Walker } from "./walker.js";

interface Candidate {
  parent?: Definition;
  field: Field;
  definition?: FieldDefinition;
}

function collect(
  w: Walker,
  parent: Definition | undefined,
  selections: Selection[],
  out: Map<string, Candidate[]>,
  seen: Set<string>,
): void {
  for (const sel of selections) {
    if (sel.kind === "field") {
      const definition =
        sel.Name === "__typename" ? typenameField : parent?.Fields.find((f) => f.Name === sel.Name);
      // A field decoded from an AST object may lack an alias; its name is then the key.
      const responseName = sel.Alias || sel.Name;
      const list = out.get(responseName) ?? [];
      list.push({ parent, field: sel, definition });
      out.set(responseName, list);
    } else if (sel.kind === "inline") {
      const next = sel.TypeCondition !== "" ? w.schema.types.get(sel.TypeCondition) : parent;
      collect(w, next, sel.SelectionSet, out, seen);
    } else if (!seen.has(sel.Name)) {
      seen.add(sel.Name);
      const frag = w.fragment(sel.Name);
      if (frag) collect(w, w.schema.types.get(frag.TypeCondition), frag.SelectionSet, out, seen);
    }
  }
}

function typesConflict(schema: Schema, a: GqlType, b: GqlType): boolean {
  if (a.Elem || b.Elem) return !a.Elem || !b.Elem || typesConflict(schema, a.Elem, b.Elem);
  if (a.NonNull !== b.NonNull) return true;
  const da = schema.types.get(a.NamedType);
  const db = schema.types.get(b.NamedType);
  const leaf = (d?: Definition) => d?.Kind === "SCALAR" || d?.Kind === "ENUM";
  if (leaf(da) || leaf(db)) return a.NamedType !== b.NamedType;
  return false;
}

function sameArguments(a: Field, b: Field): boolean {
  if (a.Arguments.length !== b.Arguments.length) return false;
  return a.Arguments.every((arg) => {
    const other = b.Arguments.find((x) => x.Name === arg.Name);
    return other !== undefined && valueString(other.Value) === valueString(arg.Value);
  });
}

function conflictReason(
  w: Walker,
  a: Candidate,
  b: Candidate,
  exclusive: boolean,
): string | undefined {
  // Fields the schema does not define are reported by other rules, never as conflicts.
  if (!a.definition || !b.definition || !a.parent || !b.parent) return undefined;
  if (!exclusive) {
    if (a.field.Name !== b.field.Name)
      return `${a.field.Name} and ${b.field.Name} are different fields`;
    if (!sameArguments(a.field, b.field)) return "they have differing arguments";
  }
  if (typesConflict(w.schema, a.definition.Type, b.definition.Type)) {
    return `they return conflicting types ${typeString(a.definition.Type)} and ${typeString(b.definition.Type)}`;
  }
  return undefined;
}

function checkSet(
  w: Walker,
  fields: Map<string, Candidate[]>,
  parentsExclusive: boolean,
  depth: number,
): void {
  for (const [name, candidates] of fields) {
    for (let i = 0; i < candidates.length; i++) {
      for (let j = i + 1; j < candidates.length; j++) {
        const a = candidates[i] as Candidate;
        const b = candidates[j] as Candidate;
        const exclusive =
          parentsExclusive ||
          (a.parent !== b.parent && a.parent?.Kind === "OBJECT" && b.parent?.Kind === "OBJECT");
        const reason = conflictReason(w, a, b, exclusive);
        if (reason) {
          w.report(
            `Fields "${name}" conflict because ${reason}. Use different aliases on the fields to fetch both if this was intentional.`,
            b.field.pos,
          );
          continue;
        }
        if (
          depth < 16 &&
          a.definition &&
          b.definition &&
          a.field.SelectionSet.length &&
          b.field.SelectionSet.length
        ) {
          const sub = new Map<string, Candidate[]>();
          collect(
            w,
            w.schema.types.get(typeName(a.definition.Type)),
            a.field.SelectionSet,
            sub,
            new Set(),
          );
          collect(
            w,
            w.schema.types.get(typeName(b.definition.Type)),
            b.field.SelectionSet,
            sub,
            new Set(),
          );
          checkSet(w, sub, exclusive, depth + 1);
        }
      }
    }
  }
}

function checkSelections(w: Walker, parent: Definition | undefined, selections: Selection[]): void {
  const fields = new Map<string, Candidate[]>();
  collect(w, parent, selections, fields, new Set());
  checkSet(w, fields, false, 0);
}

export const overlappingFieldsRule: Rule = {
  onOperation(w, op) {
    const root =
      op.Operation === "mutation"
        ? w.schema.mutation
        : op.Operation === "subscription"
          ? w.schema.subscription
          : w.schema.query;
    checkSelections(w, root, op.SelectionSet);
  },
  onField(w, field) {
    const def = w.fields.get(field)?.definition;
    if (field.SelectionSet.length > 0)
      checkSelections(
        w,
        def ? w.schema.types.get(typeName(def.Type)) : undefined,
        field.SelectionSet,
      );
  },
  onFragment(w, frag) {
    checkSelections(w, w.schema.types.get(frag.TypeCondition), frag.SelectionSet);
  },
};
