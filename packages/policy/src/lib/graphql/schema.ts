/**
 * Builds a validated schema from a schema document plus the prelude, applying the checks
 * OPA's GraphQL library makes when loading a schema (types exist, kinds fit, interfaces are
 * implemented, directives are known and applicable).
 */
import {
  type ArgumentDefinition,
  type Definition,
  type DefinitionKind,
  type Directive,
  type DirectiveDefinition,
  type FieldDefinition,
  type GqlType,
  type SchemaDocument,
  typeCompatible,
  typeName,
  typeString,
} from "./ast.js";
import { GraphQLSyntaxError, type Position } from "./lexer.js";
import { preludeSDL } from "./prelude.js";
import { parseSchemaDocument } from "./schema-parser.js";

export interface Schema {
  types: Map<string, Definition>;
  directives: Map<string, DirectiveDefinition>;
  query?: Definition;
  mutation?: Definition;
  subscription?: Definition;
  /** Object types that may stand for an abstract type (and each object for itself). */
  possibleTypes: Map<string, Definition[]>;
}

let preludeCache: SchemaDocument | undefined;

function prelude(): SchemaDocument {
  if (!preludeCache) {
    const doc = parseSchemaDocument(preludeSDL);
    if (doc instanceof GraphQLSyntaxError) throw doc;
    for (const d of doc.Definitions) d.BuiltIn = true;
    preludeCache = doc;
  }
  return structuredClone(preludeCache);
}

const fail = (message: string, pos?: Position) => new GraphQLSyntaxError(message, pos);

/** Loads `doc` on top of the prelude; the first problem is returned as an error. */
export function loadSchema(userDoc: SchemaDocument): Schema | GraphQLSyntaxError {
  const base = prelude();
  const doc = structuredClone(userDoc);
  const schema: Schema = { types: new Map(), directives: new Map(), possibleTypes: new Map() };
  const all = collectTypes(schema, [...base.Definitions, ...doc.Definitions], doc.Extensions);
  if (all instanceof GraphQLSyntaxError) return all;
  collectPossibleTypes(schema, all);
  const problem =
    collectDirectives(schema, [...base.Directives, ...doc.Directives]) ??
    assignRoots(schema, doc) ??
    validateAll(schema);
  if (problem) return problem;
  if (doc.Schema.length === 0) {
    schema.query ??= schema.types.get("Query");
    schema.mutation ??= schema.types.get("Mutation");
    schema.subscription ??= schema.types.get("Subscription");
  }
  schema.query?.Fields.push(...introspectionFields());
  return schema;
}

/** Registers every type, applying extensions (which may introduce a type of their own). */
function collectTypes(
  schema: Schema,
  definitions: Definition[],
  extensions: Definition[],
): Definition[] | GraphQLSyntaxError {
  for (const def of definitions) {
    if (schema.types.has(def.Name)) return fail(`Cannot redeclare type ${def.Name}.`, def.pos);
    schema.types.set(def.Name, def);
  }
  const all = [...definitions];
  for (const ext of extensions) {
    let def = schema.types.get(ext.Name);
    if (!def) {
      def = { ...ext, Directives: [], Interfaces: [], Fields: [], Types: [], EnumValues: [] };
      schema.types.set(ext.Name, def);
      all.push(def);
    }
    if (def.Kind !== ext.Kind) {
      return fail(
        `Cannot extend type ${ext.Name} because the base type is a ${def.Kind}, not ${ext.Kind}.`,
        ext.pos,
      );
    }
    def.Directives.push(...ext.Directives);
    def.Interfaces.push(...ext.Interfaces);
    def.Fields.push(...ext.Fields);
    def.Types.push(...ext.Types);
    def.EnumValues.push(...ext.EnumValues);
  }
  return all;
}

/** Built-in directives a schema may declare again; the first declaration is kept. */
const builtinDirectives = new Set(["include", "skip", "deprecated", "specifiedBy"]);

function collectDirectives(
  schema: Schema,
  dirs: DirectiveDefinition[],
): GraphQLSyntaxError | undefined {
  for (const dir of dirs) {
    if (schema.directives.has(dir.Name)) {
      if (builtinDirectives.has(dir.Name)) continue;
      return fail(`Cannot redeclare directive ${dir.Name}.`, dir.pos);
    }
    schema.directives.set(dir.Name, dir);
  }
  return undefined;
}

/** Checks every type, then every directive, in name order as the Go library does. */
function validateAll(schema: Schema): GraphQLSyntaxError | undefined {
  for (const name of [...schema.types.keys()].sort()) {
    const err = validateDefinition(schema, schema.types.get(name) as Definition);
    if (err) return err;
  }
  for (const name of [...schema.directives.keys()].sort()) {
    const dir = schema.directives.get(name) as DirectiveDefinition;
    const err = validateName(dir.Name, dir.pos) ?? validateArgs(schema, dir.Arguments, dir);
    if (err) return err;
  }
  return undefined;
}

/** `__schema` and `__type(name:)`, which every query root offers. */
function introspectionFields(): FieldDefinition[] {
  const field = (
    name: string,
    type: GqlType,
    args: ArgumentDefinition[] = [],
  ): FieldDefinition => ({
    Description: "",
    Name: name,
    Arguments: args,
    Type: type,
    Directives: [],
  });
  const nameArg: ArgumentDefinition = {
    Description: "",
    Name: "name",
    Type: { NamedType: "String", NonNull: true },
    Directives: [],
  };
  return [
    field("__schema", { NamedType: "__Schema", NonNull: true }),
    field("__type", { NamedType: "__Type", NonNull: false }, [nameArg]),
  ];
}

function addPossible(schema: Schema, name: string, def: Definition): void {
  const list = schema.possibleTypes.get(name) ?? [];
  list.push(def);
  schema.possibleTypes.set(name, list);
}

function collectPossibleTypes(schema: Schema, defs: Definition[]): void {
  for (const def of defs) {
    if (def.Kind === "UNION") {
      for (const t of def.Types) {
        const member = schema.types.get(t);
        if (member) addPossible(schema, def.Name, member);
      }
    } else if (def.Kind === "OBJECT" || def.Kind === "INPUT_OBJECT" || def.Kind === "INTERFACE") {
      for (const intf of def.Interfaces) addPossible(schema, intf, def);
      if (def.Kind !== "INTERFACE") addPossible(schema, def.Name, def);
    }
  }
}

function assignRoots(schema: Schema, doc: SchemaDocument): GraphQLSyntaxError | undefined {
  if (doc.Schema.length > 1) {
    return fail(
      "Cannot have multiple schema entry points, consider schema extensions instead.",
      doc.Schema[1]?.pos,
    );
  }
  for (const def of [...doc.Schema, ...doc.SchemaExtension]) {
    for (const entry of def.OperationTypes) {
      const target = schema.types.get(entry.Type);
      if (!target) {
        return fail(
          `Schema root ${entry.Operation} refers to a type ${entry.Type} that does not exist.`,
          entry.pos,
        );
      }
      if (entry.Operation === "query") schema.query = target;
      else if (entry.Operation === "mutation") schema.mutation = target;
      else if (entry.Operation === "subscription") schema.subscription = target;
    }
  }
  return undefined;
}

function validateName(name: string, pos?: Position): GraphQLSyntaxError | undefined {
  if (name.startsWith("__")) {
    return fail(
      `Name "${name}" must not begin with "__", which is reserved by GraphQL introspection.`,
      pos,
    );
  }
  return undefined;
}

function validateTypeRef(schema: Schema, t: GqlType): GraphQLSyntaxError | undefined {
  return schema.types.has(typeName(t)) ? undefined : fail(`Undefined type ${typeName(t)}.`, t.pos);
}

const isInputKind = (k: DefinitionKind | undefined) =>
  k === "SCALAR" || k === "ENUM" || k === "INPUT_OBJECT";

function validateArgs(
  schema: Schema,
  args: ArgumentDefinition[],
  current?: DirectiveDefinition,
): GraphQLSyntaxError | undefined {
  for (const arg of args) {
    const err = validateName(arg.Name, arg.pos) ?? validateTypeRef(schema, arg.Type);
    if (err) return err;
    const def = schema.types.get(typeName(arg.Type));
    if (!isInputKind(def?.Kind)) {
      return fail(
        `cannot use ${typeString(arg.Type)} as argument ${arg.Name} because ${def?.Kind} is not a valid input type`,
        arg.pos,
      );
    }
    const dirErr = validateDirectives(schema, arg.Directives, "ARGUMENT_DEFINITION", current);
    if (dirErr) return dirErr;
  }
  return undefined;
}

/** Schema-side directive checks: the directive is known and applicable here. */
function validateDirectives(
  schema: Schema,
  dirs: Directive[],
  location: string,
  current?: DirectiveDefinition,
): GraphQLSyntaxError | undefined {
  for (const dir of dirs) {
    const nameErr = validateName(dir.Name, dir.pos);
    if (nameErr) return nameErr;
    if (current && dir.Name === current.Name) {
      return fail(`Directive ${current.Name} cannot refer to itself.`, dir.pos);
    }
    const def = schema.directives.get(dir.Name);
    if (!def) return fail(`Undefined directive ${dir.Name}.`, dir.pos);
    if (!def.Locations.includes(location)) {
      return fail(`Directive ${dir.Name} is not applicable on ${location}.`, dir.pos);
    }
  }
  return undefined;
}

function validateDefinition(schema: Schema, def: Definition): GraphQLSyntaxError | undefined {
  const fieldLocation = def.Kind === "INPUT_OBJECT" ? "INPUT_FIELD_DEFINITION" : "FIELD_DEFINITION";
  for (const field of def.Fields) {
    const err =
      validateName(field.Name, field.pos) ??
      validateTypeRef(schema, field.Type) ??
      validateArgs(schema, field.Arguments) ??
      validateDirectives(schema, field.Directives, fieldLocation);
    if (err) return err;
  }
  for (const t of def.Types) {
    const member = schema.types.get(t);
    if (!member) return fail(`Undefined type ${JSON.stringify(t)}.`, def.pos);
    if (member.Kind !== "OBJECT")
      return fail(`${def.Kind} type ${JSON.stringify(t)} must be OBJECT.`, def.pos);
  }
  for (const intf of def.Interfaces) {
    const err = validateImplements(schema, def, intf);
    if (err) return err;
  }
  const kindErr = validateKindRules(schema, def);
  if (kindErr) return kindErr;
  for (let i = 0; i < def.Fields.length; i++) {
    const dup = def.Fields.slice(i + 1).find((f) => f.Name === def.Fields[i]?.Name);
    if (dup) return fail(`Field ${def.Name}.${dup.Name} can only be defined once.`, dup.pos);
  }
  if (!def.BuiltIn && def.Name.startsWith("__")) return validateName(def.Name, def.pos);
  return validateDirectives(schema, def.Directives, def.Kind);
}

function validateKindRules(schema: Schema, def: Definition): GraphQLSyntaxError | undefined {
  if (def.Kind === "OBJECT" || def.Kind === "INTERFACE") {
    if (def.Fields.length === 0)
      return fail(`${def.Kind} ${def.Name}: must define one or more fields.`, def.pos);
    for (const field of def.Fields) {
      const t = schema.types.get(typeName(field.Type));
      if (t && t.Kind === "INPUT_OBJECT") {
        return fail(
          `${def.Kind} ${def.Name}: field must be one of SCALAR, OBJECT, INTERFACE, UNION, ENUM.`,
          field.pos,
        );
      }
    }
  } else if (def.Kind === "ENUM") {
    if (def.EnumValues.length === 0) {
      return fail(`${def.Kind} ${def.Name}: must define one or more unique enum values.`, def.pos);
    }
    for (const value of def.EnumValues) {
      if (["true", "false", "null"].includes(value.Name)) {
        return fail(`${def.Kind} ${def.Name}: non-enum value ${value.Name}.`, def.pos);
      }
    }
  } else if (def.Kind === "INPUT_OBJECT") {
    if (def.Fields.length === 0)
      return fail(`${def.Kind} ${def.Name}: must define one or more input fields.`, def.pos);
    for (const field of def.Fields) {
      const t = schema.types.get(typeName(field.Type));
      if (t && !isInputKind(t.Kind)) {
        return fail(
          `${t.Kind} ${field.Name}: field must be one of SCALAR, ENUM, INPUT_OBJECT.`,
          field.pos,
        );
      }
    }
  }
  return undefined;
}

function validateImplements(
  schema: Schema,
  def: Definition,
  intfName: string,
): GraphQLSyntaxError | undefined {
  const intf = schema.types.get(intfName);
  if (!intf) return fail(`Undefined type ${JSON.stringify(intfName)}.`, def.pos);
  if (intf.Kind !== "INTERFACE")
    return fail(`${JSON.stringify(intfName)} is a non interface type ${intf.Kind}.`, def.pos);
  for (const required of intf.Fields) {
    const found = def.Fields.find((f) => f.Name === required.Name);
    if (!found) {
      return fail(
        `For ${def.Name} to implement ${intf.Name} it must have a field called ${required.Name}.`,
        def.pos,
      );
    }
    if (!isCovariant(schema, required.Type, found.Type)) {
      return fail(
        `For ${def.Name} to implement ${intf.Name} the field ${required.Name} must have type ${typeString(required.Type)}.`,
        found.pos,
      );
    }
    for (const arg of required.Arguments) {
      const foundArg = found.Arguments.find((a) => a.Name === arg.Name);
      const sameArgs = `For ${def.Name} to implement ${intf.Name} the field ${required.Name} must have the same arguments but`;
      if (!foundArg) return fail(`${sameArgs} it is missing ${arg.Name}.`, found.pos);
      if (!typeCompatible(arg.Type, foundArg.Type)) {
        return fail(`${sameArgs} ${arg.Name} has the wrong type.`, foundArg.pos);
      }
    }
    for (const arg of found.Arguments) {
      if (
        !required.Arguments.some((a) => a.Name === arg.Name) &&
        arg.Type.NonNull &&
        !arg.DefaultValue
      ) {
        return fail(
          `For ${def.Name} to implement ${intf.Name} any additional arguments on ${found.Name} must be optional or have a default value but ${arg.Name} is required.`,
          found.pos,
        );
      }
    }
  }
  for (const transitive of intf.Interfaces) {
    if (!def.Interfaces.includes(transitive)) {
      return transitive !== def.Name
        ? fail(
            `Type ${def.Name} must implement ${transitive} because it is implemented by ${intfName}.`,
            def.pos,
          )
        : fail(
            `Type ${def.Name} cannot implement ${intfName} because it would create a circular reference.`,
            def.pos,
          );
    }
  }
  return undefined;
}

/** Whether a field of type `actual` may implement an interface field of type `required`. */
function isCovariant(schema: Schema, required: GqlType, actual: GqlType): boolean {
  if (required.NonNull && !actual.NonNull) return false;
  if (required.NamedType !== "") {
    if (required.NamedType === actual.NamedType) return true;
    return (schema.possibleTypes.get(required.NamedType) ?? []).some(
      (d) => d.Name === actual.NamedType,
    );
  }
  if (!required.Elem || !actual.Elem) return false;
  return isCovariant(schema, required.Elem, actual.Elem);
}
