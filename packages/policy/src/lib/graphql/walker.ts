/**
 * Walks a query document against a schema in the order OPA's validator does (operations with
 * the fragments they spread, then each fragment on its own), resolving what every field,
 * value and directive refers to, and tells the validation rules about each node. Resolutions
 * are kept in side tables so that the document itself stays as parsed.
 */
import type {
  Argument,
  ArgumentDefinition,
  Definition,
  Directive,
  DirectiveDefinition,
  Field,
  FieldDefinition,
  FragmentDefinition,
  FragmentSpread,
  GqlType,
  GqlValue,
  InlineFragment,
  OperationDefinition,
  QueryDocument,
  Selection,
  VariableDefinition,
} from "./ast.js";
import { typeName, ValueKind } from "./ast.js";
import { GraphQLSyntaxError, type Position } from "./lexer.js";
import type { Schema } from "./schema.js";

export interface ValueInfo {
  expected?: GqlType;
  definition?: Definition;
  variable?: VariableDefinition;
}

/** Callbacks a validation rule may register; each is called after the node's children. */
export interface Rule {
  onOperation?(w: Walker, op: OperationDefinition): void;
  onFragment?(w: Walker, frag: FragmentDefinition): void;
  onVariable?(w: Walker, v: VariableDefinition): void;
  onField?(w: Walker, field: Field): void;
  onFragmentSpread?(w: Walker, spread: FragmentSpread): void;
  onInlineFragment?(w: Walker, inline: InlineFragment): void;
  onDirective?(w: Walker, dir: Directive): void;
  onDirectiveList?(w: Walker, dirs: Directive[]): void;
  onValue?(w: Walker, value: GqlValue): void;
}

/** What `__typename` resolves to on any composite type. */
export const typenameField: FieldDefinition = {
  Description: "",
  Name: "__typename",
  Arguments: [],
  Type: { NamedType: "String", NonNull: true },
  Directives: [],
};

export class Walker {
  readonly errors: GraphQLSyntaxError[] = [];
  currentOperation: OperationDefinition | undefined;
  readonly values = new Map<GqlValue, ValueInfo>();
  readonly usedVariables = new Set<VariableDefinition>();
  readonly fields = new Map<Field, { definition?: FieldDefinition; parent?: Definition }>();
  readonly spreads = new Map<
    FragmentSpread,
    { definition?: FragmentDefinition; parent?: Definition }
  >();
  readonly inlines = new Map<InlineFragment, { parent?: Definition }>();
  readonly directives = new Map<
    Directive,
    { definition?: DirectiveDefinition; location: string }
  >();
  readonly variableTypes = new Map<VariableDefinition, Definition | undefined>();
  private visitedFragments = new Set<string>();

  constructor(
    readonly schema: Schema,
    readonly doc: QueryDocument,
    private readonly rules: Rule[],
  ) {}

  report(message: string, pos?: Position): void {
    this.errors.push(new GraphQLSyntaxError(message, pos));
  }

  fragment(name: string): FragmentDefinition | undefined {
    return this.doc.Fragments.find((f) => f.Name === name);
  }

  walk(): void {
    for (const op of this.doc.Operations) {
      this.visitedFragments = new Set();
      this.walkOperation(op);
    }
    for (const frag of this.doc.Fragments) {
      this.visitedFragments = new Set();
      const def = this.schema.types.get(frag.TypeCondition);
      this.walkDirectives(frag.Directives, "FRAGMENT_DEFINITION");
      this.walkSelectionSet(def, frag.SelectionSet);
      for (const r of this.rules) r.onFragment?.(this, frag);
    }
  }

  private walkOperation(op: OperationDefinition): void {
    this.currentOperation = op;
    for (const v of op.VariableDefinitions) {
      const def = this.schema.types.get(typeName(v.Type));
      this.variableTypes.set(v, def);
      for (const r of this.rules) r.onVariable?.(this, v);
      if (v.DefaultValue) this.values.set(v.DefaultValue, { expected: v.Type, definition: def });
    }
    const roots: Record<string, [Definition | undefined, string]> = {
      query: [this.schema.query, "QUERY"],
      "": [this.schema.query, "QUERY"],
      mutation: [this.schema.mutation, "MUTATION"],
      subscription: [this.schema.subscription, "SUBSCRIPTION"],
    };
    const [root, location] = roots[op.Operation] ?? [undefined, ""];
    for (const v of op.VariableDefinitions) {
      if (v.DefaultValue) this.walkValue(v.DefaultValue);
      this.walkDirectives(v.Directives, "VARIABLE_DEFINITION");
    }
    this.walkDirectives(op.Directives, location);
    this.walkSelectionSet(root, op.SelectionSet);
    for (const r of this.rules) r.onOperation?.(this, op);
    this.currentOperation = undefined;
  }

  private walkDirectives(dirs: Directive[], location: string): void {
    for (const dir of dirs) {
      const def = this.schema.directives.get(dir.Name);
      this.directives.set(dir, { definition: def, location });
      this.walkArguments(dir.Arguments, def?.Arguments);
      for (const r of this.rules) r.onDirective?.(this, dir);
    }
    for (const r of this.rules) r.onDirectiveList?.(this, dirs);
  }

  /** Records the type a value must have, and that type's definition, for the value rules. */
  private expect(value: GqlValue, type: GqlType): void {
    this.values.set(value, { expected: type, definition: this.schema.types.get(typeName(type)) });
  }

  /** Walks a field's or directive's arguments, typing those its definition declares. */
  private walkArguments(args: Argument[], defs: ArgumentDefinition[] | undefined): void {
    for (const arg of args) {
      const argDef = defs?.find((a) => a.Name === arg.Name);
      if (argDef) this.expect(arg.Value, argDef.Type);
      this.walkValue(arg.Value);
    }
  }

  private walkValue(value: GqlValue): void {
    const info = this.values.get(value) ?? {};
    this.values.set(value, info);
    if (value.Kind === ValueKind.Variable && this.currentOperation) {
      info.variable = this.currentOperation.VariableDefinitions.find(
        (v) => v.Variable === value.Raw,
      );
      if (info.variable) this.usedVariables.add(info.variable);
    }
    for (const child of value.Children) {
      if (value.Kind === ValueKind.Object && info.definition) {
        const fieldDef = info.definition.Fields.find((f) => f.Name === child.Name);
        if (fieldDef) this.expect(child.Value, fieldDef.Type);
      } else if (value.Kind === ValueKind.List && info.expected?.Elem) {
        this.values.set(child.Value, { expected: info.expected.Elem, definition: info.definition });
      }
      this.walkValue(child.Value);
    }
    for (const r of this.rules) r.onValue?.(this, value);
  }

  private walkSelectionSet(parent: Definition | undefined, selections: Selection[]): void {
    for (const sel of selections) {
      if (sel.kind === "field") this.walkField(parent, sel);
      else if (sel.kind === "inline") this.walkInline(parent, sel);
      else this.walkSpread(parent, sel);
    }
  }

  private walkField(parent: Definition | undefined, field: Field): void {
    const def =
      field.Name === "__typename"
        ? typenameField
        : parent?.Fields.find((f) => f.Name === field.Name);
    this.fields.set(field, { definition: def, parent });
    const next = def ? this.schema.types.get(typeName(def.Type)) : undefined;
    this.walkArguments(field.Arguments, def?.Arguments);
    this.walkDirectives(field.Directives, "FIELD");
    this.walkSelectionSet(next, field.SelectionSet);
    for (const r of this.rules) r.onField?.(this, field);
  }

  private walkInline(parent: Definition | undefined, inline: InlineFragment): void {
    this.inlines.set(inline, { parent });
    const next = inline.TypeCondition !== "" ? this.schema.types.get(inline.TypeCondition) : parent;
    this.walkDirectives(inline.Directives, "INLINE_FRAGMENT");
    this.walkSelectionSet(next, inline.SelectionSet);
    for (const r of this.rules) r.onInlineFragment?.(this, inline);
  }

  private walkSpread(parent: Definition | undefined, spread: FragmentSpread): void {
    const def = this.fragment(spread.Name);
    this.spreads.set(spread, { definition: def, parent });
    const next = def ? this.schema.types.get(def.TypeCondition) : undefined;
    this.walkDirectives(spread.Directives, "FRAGMENT_SPREAD");
    if (def && !this.visitedFragments.has(def.Name)) {
      this.visitedFragments.add(def.Name);
      this.walkSelectionSet(next, def.SelectionSet);
    }
    for (const r of this.rules) r.onFragmentSpread?.(this, spread);
  }
}
