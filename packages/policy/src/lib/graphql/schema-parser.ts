/** Parses GraphQL schema definition language into a SchemaDocument. */
import {
  type ArgumentDefinition,
  type Definition,
  type DefinitionKind,
  type DirectiveDefinition,
  type FieldDefinition,
  newDefinition,
  type SchemaDefinition,
  type SchemaDocument,
} from "./ast.js";
import type { GraphQLSyntaxError } from "./lexer.js";
import { ParserBase } from "./parser-base.js";

/** The document, or the first syntax error. */
export function parseSchemaDocument(input: string): SchemaDocument | GraphQLSyntaxError {
  const p = new SchemaParser(input);
  const doc = p.parseDocument();
  return p.err ?? doc;
}

const typeKeywords: Record<string, DefinitionKind> = {
  scalar: "SCALAR",
  type: "OBJECT",
  interface: "INTERFACE",
  union: "UNION",
  enum: "ENUM",
  input: "INPUT_OBJECT",
};

/** Every location a directive definition may name. */
export const directiveLocations = new Set([
  "QUERY",
  "MUTATION",
  "SUBSCRIPTION",
  "FIELD",
  "FRAGMENT_DEFINITION",
  "FRAGMENT_SPREAD",
  "INLINE_FRAGMENT",
  "VARIABLE_DEFINITION",
  "SCHEMA",
  "SCALAR",
  "OBJECT",
  "FIELD_DEFINITION",
  "ARGUMENT_DEFINITION",
  "INTERFACE",
  "UNION",
  "ENUM",
  "ENUM_VALUE",
  "INPUT_OBJECT",
  "INPUT_FIELD_DEFINITION",
]);

class SchemaParser extends ParserBase {
  parseDocument(): SchemaDocument {
    const doc: SchemaDocument = {
      Schema: [],
      SchemaExtension: [],
      Directives: [],
      Definitions: [],
      Extensions: [],
    };
    while (this.peek().kind !== "<EOF>") {
      if (this.err) return doc;
      const description = this.parseDescription();
      const tok = this.peek();
      if (tok.kind !== "Name") {
        this.unexpected();
        break;
      }
      const kind = typeKeywords[tok.value];
      if (kind) doc.Definitions.push(this.parseTypeDefinition(kind, description, false));
      else if (tok.value === "schema") {
        this.expectKeyword("schema");
        doc.Schema.push(this.parseSchemaBody(description));
      } else if (tok.value === "directive")
        doc.Directives.push(this.parseDirectiveDefinition(description));
      else if (tok.value === "extend") {
        if (description !== "") this.unexpected(this.prev);
        this.parseExtension(doc);
      } else {
        this.unexpected();
        return doc;
      }
    }
    return doc;
  }

  private parseSchemaBody(description: string): SchemaDefinition {
    const def: SchemaDefinition = {
      Description: description,
      Directives: [],
      OperationTypes: [],
      pos: this.peekPos(),
    };
    def.Directives = this.parseDirectives(true);
    this.some("{", "}", () => {
      const pos = this.peekPos();
      const opTok = this.next();
      if (!["query", "mutation", "subscription"].includes(opTok.value)) this.unexpected(opTok);
      this.expect(":");
      def.OperationTypes.push({ Operation: opTok.value, Type: this.parseName(), pos });
    });
    return def;
  }

  /** `scalar|type|interface|union|enum|input Name ...`, as a definition or an extension. */
  private parseTypeDefinition(
    kind: DefinitionKind,
    description: string,
    extension: boolean,
  ): Definition {
    this.next();
    const def = newDefinition(kind, "", this.peekPos());
    def.Description = description;
    def.Name = this.parseName();
    if (kind === "OBJECT" || kind === "INTERFACE") def.Interfaces = this.parseImplements();
    def.Directives = this.parseDirectives(true);
    if (kind === "OBJECT" || kind === "INTERFACE") def.Fields = this.parseFields(false);
    else if (kind === "INPUT_OBJECT") def.Fields = this.parseFields(true);
    else if (kind === "UNION") def.Types = this.parseUnionMembers();
    else if (kind === "ENUM") {
      this.some("{", "}", () => {
        const pos = this.peekPos();
        const desc = this.parseDescription();
        const name = this.parseName();
        def.EnumValues.push({
          Description: desc,
          Name: name,
          Directives: this.parseDirectives(true),
          pos,
        });
      });
    }
    const empty =
      def.Directives.length === 0 &&
      def.Interfaces.length === 0 &&
      def.Fields.length === 0 &&
      def.Types.length === 0 &&
      def.EnumValues.length === 0;
    if (extension && empty) this.unexpected();
    return def;
  }

  private parseExtension(doc: SchemaDocument): void {
    this.expectKeyword("extend");
    const tok = this.peek();
    const kind = tok.kind === "Name" ? typeKeywords[tok.value] : undefined;
    if (kind) {
      doc.Extensions.push(this.parseTypeDefinition(kind, "", true));
    } else if (tok.kind === "Name" && tok.value === "schema") {
      this.expectKeyword("schema");
      const def = this.parseSchemaBody("");
      if (def.Directives.length === 0 && def.OperationTypes.length === 0) this.unexpected();
      doc.SchemaExtension.push(def);
    } else this.unexpected();
  }

  private parseImplements(): string[] {
    const types: string[] = [];
    if (this.peek().value !== "implements") return types;
    this.next();
    this.skip("&");
    types.push(this.parseName());
    while (this.skip("&") && !this.err) types.push(this.parseName());
    return types;
  }

  private parseUnionMembers(): string[] {
    const types: string[] = [];
    if (!this.skip("=")) return types;
    this.skip("|");
    types.push(this.parseName());
    while (this.skip("|") && !this.err) types.push(this.parseName());
    return types;
  }

  private parseFields(input: boolean): FieldDefinition[] {
    const fields: FieldDefinition[] = [];
    this.some("{", "}", () => {
      const pos = this.peekPos();
      const description = this.parseDescription();
      const name = this.parseName();
      const args = input ? [] : this.parseArgumentDefs();
      this.expect(":");
      const type = this.parseTypeReference();
      const field: FieldDefinition = {
        Description: description,
        Name: name,
        Arguments: args,
        Type: type,
        Directives: [],
        pos,
      };
      if (input && this.skip("=")) field.DefaultValue = this.parseValueLiteral(true);
      field.Directives = this.parseDirectives(true);
      fields.push(field);
    });
    return fields;
  }

  private parseArgumentDefs(): ArgumentDefinition[] {
    const args: ArgumentDefinition[] = [];
    this.some("(", ")", () => {
      const pos = this.peekPos();
      const description = this.parseDescription();
      const name = this.parseName();
      this.expect(":");
      const type = this.parseTypeReference();
      const arg: ArgumentDefinition = {
        Description: description,
        Name: name,
        Type: type,
        Directives: [],
        pos,
      };
      if (this.skip("=")) arg.DefaultValue = this.parseValueLiteral(true);
      arg.Directives = this.parseDirectives(true);
      args.push(arg);
    });
    return args;
  }

  private parseDirectiveDefinition(description: string): DirectiveDefinition {
    this.expectKeyword("directive");
    this.expect("@");
    const pos = this.peekPos();
    const name = this.parseName();
    const def: DirectiveDefinition = {
      Description: description,
      Name: name,
      Arguments: this.parseArgumentDefs(),
      Locations: [],
      IsRepeatable: false,
      pos,
    };
    const peek = this.peek();
    if (peek.kind === "Name" && peek.value === "repeatable") {
      def.IsRepeatable = true;
      this.next();
    }
    this.expectKeyword("on");
    this.skip("|");
    def.Locations.push(this.parseDirectiveLocation());
    while (this.skip("|") && !this.err) def.Locations.push(this.parseDirectiveLocation());
    return def;
  }

  private parseDirectiveLocation(): string {
    const tok = this.expect("Name");
    if (directiveLocations.has(tok.value)) return tok.value;
    this.unexpected(tok);
    return "";
  }
}
