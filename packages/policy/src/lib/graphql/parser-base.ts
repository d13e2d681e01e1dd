/**
 * Token handling shared by the query and schema parsers, plus the grammar both use (values,
 * type references, directives, arguments). Mirrors gqlparser's error discipline: the first
 * error wins, and after it every read returns the previous token so parsing winds down.
 */
import { type Argument, type Directive, type GqlType, type GqlValue, ValueKind } from "./ast.js";
import {
  describeToken,
  GraphQLSyntaxError,
  Lexer,
  type Position,
  type Token,
  type TokenKind,
} from "./lexer.js";

export class ParserBase {
  private readonly lexer: Lexer;
  err: GraphQLSyntaxError | undefined;
  private peeked = false;
  private peekToken!: Token;
  private peekError: GraphQLSyntaxError | undefined;
  prev: Token = { kind: "<EOF>", value: "", pos: { line: 1, column: 1 } };

  constructor(input: string) {
    this.lexer = new Lexer(input);
  }

  peek(): Token {
    if (this.err) return this.prev;
    if (!this.peeked) {
      const { token, error } = this.lexer.readToken();
      this.peekToken = token;
      this.peekError = error;
      this.peeked = true;
    }
    return this.peekToken;
  }

  peekPos(): Position | undefined {
    return this.err ? undefined : this.peek().pos;
  }

  next(): Token {
    if (this.err) return this.prev;
    if (this.peeked) {
      this.peeked = false;
      this.prev = this.peekToken;
      this.err = this.peekError;
      return this.prev;
    }
    const { token, error } = this.lexer.readToken();
    this.prev = token;
    this.err = error;
    return token;
  }

  error(tok: Token, message: string): void {
    if (this.err) return;
    this.err = new GraphQLSyntaxError(message, tok.pos);
  }

  skip(kind: TokenKind): boolean {
    if (this.err) return false;
    if (this.peek().kind !== kind) return false;
    this.next();
    return true;
  }

  unexpected(tok: Token = this.peek()): void {
    this.error(tok, `Unexpected ${describeToken(tok)}`);
  }

  expect(kind: TokenKind): Token {
    const tok = this.peek();
    if (tok.kind === kind) return this.next();
    this.error(tok, `Expected ${kind}, found ${tok.kind}`);
    return tok;
  }

  expectKeyword(value: string): Token {
    const tok = this.peek();
    if (tok.kind === "Name" && tok.value === value) return this.next();
    this.error(tok, `Expected ${JSON.stringify(value)}, found ${describeToken(tok)}`);
    return tok;
  }

  /** A delimited list that must hold at least one item. */
  some(start: TokenKind, end: TokenKind, item: () => void): void {
    if (!this.skip(start)) return;
    let called = false;
    while (this.peek().kind !== end && !this.err) {
      called = true;
      item();
    }
    if (!called) {
      this.error(this.peek(), `expected at least one definition, found ${this.peek().kind}`);
      return;
    }
    this.next();
  }

  /** A delimited list that may be empty. */
  many(start: TokenKind, end: TokenKind, item: () => void): void {
    if (!this.skip(start)) return;
    while (this.peek().kind !== end && !this.err) item();
    this.next();
  }

  parseName(): string {
    return this.expect("Name").value;
  }

  parseVariable(): string {
    this.expect("$");
    return this.parseName();
  }

  parseValueLiteral(isConst: boolean): GqlValue {
    const tok = this.peek();
    let kind: number;
    switch (tok.kind) {
      case "[":
        return this.parseCompound(isConst, "[", "]", ValueKind.List);
      case "{":
        return this.parseCompound(isConst, "{", "}", ValueKind.Object);
      case "$":
        if (isConst) {
          this.unexpected();
          return emptyValue();
        }
        return { Raw: this.parseVariable(), Children: [], Kind: ValueKind.Variable, pos: tok.pos };
      case "Int":
        kind = ValueKind.Int;
        break;
      case "Float":
        kind = ValueKind.Float;
        break;
      case "String":
        kind = ValueKind.String;
        break;
      case "BlockString":
        kind = ValueKind.Block;
        break;
      case "Name":
        kind =
          tok.value === "true" || tok.value === "false"
            ? ValueKind.Boolean
            : tok.value === "null"
              ? ValueKind.Null
              : ValueKind.Enum;
        break;
      default:
        this.unexpected();
        return emptyValue();
    }
    this.next();
    return { Raw: tok.value, Children: [], Kind: kind, pos: tok.pos };
  }

  private parseCompound(
    isConst: boolean,
    open: TokenKind,
    close: TokenKind,
    kind: number,
  ): GqlValue {
    const pos = this.peekPos();
    const children: GqlValue["Children"] = [];
    this.many(open, close, () => {
      if (kind === ValueKind.List) {
        children.push({ Name: "", Value: this.parseValueLiteral(isConst) });
        return;
      }
      const fieldPos = this.peekPos();
      const name = this.parseName();
      this.expect(":");
      children.push({ Name: name, Value: this.parseValueLiteral(isConst), pos: fieldPos });
    });
    return { Raw: "", Children: children, Kind: kind, pos };
  }

  parseTypeReference(): GqlType {
    let typ: GqlType;
    if (this.skip("[")) {
      const pos = this.peekPos();
      const elem = this.parseTypeReference();
      this.expect("]");
      typ = { NamedType: "", Elem: elem, NonNull: false, pos };
    } else {
      const pos = this.peekPos();
      typ = { NamedType: this.parseName(), NonNull: false, pos };
    }
    if (this.skip("!")) typ.NonNull = true;
    return typ;
  }

  parseArguments(isConst: boolean): Argument[] {
    const args: Argument[] = [];
    this.many("(", ")", () => {
      const pos = this.peekPos();
      const name = this.parseName();
      this.expect(":");
      args.push({ Name: name, Value: this.parseValueLiteral(isConst), pos });
    });
    return args;
  }

  parseDirectives(isConst: boolean): Directive[] {
    const out: Directive[] = [];
    while (this.peek().kind === "@" && !this.err) {
      this.expect("@");
      const pos = this.peekPos();
      const name = this.parseName();
      out.push({ Name: name, Arguments: this.parseArguments(isConst), pos });
    }
    return out;
  }

  parseDescription(): string {
    const tok = this.peek();
    return tok.kind === "String" || tok.kind === "BlockString" ? this.next().value : "";
  }
}

function emptyValue(): GqlValue {
  return { Raw: "", Children: [], Kind: ValueKind.Null };
}
