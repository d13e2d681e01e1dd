/** Parses executable GraphQL documents (operations and fragments). */
import type {
  Field,
  FragmentDefinition,
  OperationDefinition,
  QueryDocument,
  Selection,
  VariableDefinition,
} from "./ast.js";
import type { GraphQLSyntaxError } from "./lexer.js";
import { ParserBase } from "./parser-base.js";

/** The document, or the first syntax error. */
export function parseQueryDocument(input: string): QueryDocument | GraphQLSyntaxError {
  const p = new QueryParser(input);
  const doc = p.parseDocument();
  return p.err ?? doc;
}

class QueryParser extends ParserBase {
  parseDocument(): QueryDocument {
    const doc: QueryDocument = { Operations: [], Fragments: [] };
    while (this.peek().kind !== "<EOF>") {
      if (this.err) return doc;
      const tok = this.peek();
      if (tok.kind === "{") doc.Operations.push(this.parseOperation());
      else if (tok.kind === "Name" && ["query", "mutation", "subscription"].includes(tok.value)) {
        doc.Operations.push(this.parseOperation());
      } else if (tok.kind === "Name" && tok.value === "fragment") {
        doc.Fragments.push(this.parseFragmentDefinition());
      } else this.unexpected();
    }
    return doc;
  }

  private parseOperation(): OperationDefinition {
    const pos = this.peekPos();
    if (this.peek().kind === "{") {
      return {
        Operation: "query",
        Name: "",
        VariableDefinitions: [],
        Directives: [],
        SelectionSet: this.parseRequiredSelectionSet(),
        pos,
      };
    }
    const opTok = this.next();
    if (!["query", "mutation", "subscription"].includes(opTok.value)) this.unexpected(opTok);
    const name = this.peek().kind === "Name" ? this.next().value : "";
    return {
      Operation: opTok.value,
      Name: name,
      VariableDefinitions: this.parseVariableDefinitions(),
      Directives: this.parseDirectives(false),
      SelectionSet: this.parseRequiredSelectionSet(),
      pos,
    };
  }

  private parseVariableDefinitions(): VariableDefinition[] {
    const defs: VariableDefinition[] = [];
    this.many("(", ")", () => {
      const pos = this.peekPos();
      const variable = this.parseVariable();
      this.expect(":");
      const type = this.parseTypeReference();
      const def: VariableDefinition = { Variable: variable, Type: type, Directives: [], pos };
      if (this.skip("=")) def.DefaultValue = this.parseValueLiteral(true);
      def.Directives = this.parseDirectives(false);
      defs.push(def);
    });
    return defs;
  }

  private parseRequiredSelectionSet(): Selection[] {
    if (this.peek().kind !== "{") {
      this.error(this.peek(), `Expected {, found ${this.peek().kind}`);
      return [];
    }
    return this.parseSelectionSet();
  }

  private parseSelectionSet(): Selection[] {
    const out: Selection[] = [];
    this.some("{", "}", () => {
      out.push(this.peek().kind === "..." ? this.parseFragment() : this.parseField());
    });
    return out;
  }

  private parseField(): Field {
    const pos = this.peekPos();
    const alias = this.parseName();
    const name = this.skip(":") ? this.parseName() : alias;
    const field: Field = {
      kind: "field",
      Alias: alias,
      Name: name,
      Arguments: this.parseArguments(false),
      Directives: this.parseDirectives(false),
      SelectionSet: [],
      pos,
    };
    if (this.peek().kind === "{") field.SelectionSet = this.parseSelectionSet();
    return field;
  }

  private parseFragment(): Selection {
    this.expect("...");
    const peek = this.peek();
    if (peek.kind === "Name" && peek.value !== "on") {
      const pos = this.peekPos();
      const name = this.parseFragmentName();
      return { kind: "spread", Name: name, Directives: this.parseDirectives(false), pos };
    }
    const pos = this.peekPos();
    let typeCondition = "";
    if (this.peek().value === "on") {
      this.next();
      typeCondition = this.parseName();
    }
    const directives = this.parseDirectives(false);
    return {
      kind: "inline",
      TypeCondition: typeCondition,
      Directives: directives,
      SelectionSet: this.parseRequiredSelectionSet(),
      pos,
    };
  }

  private parseFragmentDefinition(): FragmentDefinition {
    const pos = this.peekPos();
    this.expectKeyword("fragment");
    const name = this.parseFragmentName();
    const variables = this.parseVariableDefinitions();
    this.expectKeyword("on");
    const typeCondition = this.parseName();
    const directives = this.parseDirectives(false);
    return {
      Name: name,
      VariableDefinition: variables,
      TypeCondition: typeCondition,
      Directives: directives,
      SelectionSet: this.parseRequiredSelectionSet(),
      pos,
    };
  }

  private parseFragmentName(): string {
    if (this.peek().value === "on") {
      this.unexpected();
      return "";
    }
    return this.parseName();
  }
}
