/**
 * Recursive-descent parser for expressions and terms, one method per production. The
 * precedence, loosest first: unification (`=`, `:=`) → membership (`in`) → relation
 * (`==` `!=` `<` `<=` `>` `>=`) → union (`|`) → intersection (`&`) → arithmetic (`+` `-`) →
 * factor (`*` `/` `%`) → unary → term; the binary levels share one precedence-climbing loop.
 * Nesting deeper than `maxNesting` is a parse error (nesting.ts). Module-level productions
 * live in module-parser.ts.
 */
import type {
  Body,
  EveryExpr,
  Expr,
  Loc,
  SomeDecl,
  SomeIn,
  Term,
  TermExpr,
  VarTerm,
  WithModifier,
} from "../ast/nodes.js";
import type { RegoError } from "../errors.js";
import { parseNumber } from "../value/number.js";
import { type Comment, type SourceMap, type Token, tokenize } from "./lexer.js";
import { maxNesting, nestingMessage } from "./nesting.js";

const relationOps: Record<string, string> = {
  "==": "equal",
  "!=": "neq",
  "<": "lt",
  "<=": "lte",
  ">": "gt",
  ">=": "gte",
};
const arithOps: Record<string, string> = { "+": "plus", "-": "minus" };
const factorOps: Record<string, string> = { "*": "mul", "/": "div", "%": "rem" };

/** Precedence levels of the binary operators, loosest first. */
const Level = { Relation: 0, Or: 1, And: 2, Arith: 3, Factor: 4 } as const;

const binaryOps = new Map<string, { name: string; level: number }>();
for (const [ops, level] of [
  [relationOps, Level.Relation],
  [{ "&": "and" }, Level.And],
  [arithOps, Level.Arith],
  [factorOps, Level.Factor],
] as const) {
  for (const [text, name] of Object.entries(ops)) binaryOps.set(text, { name, level });
}

/** Parses queries, literals, expressions and terms from one token stream. */
export class ExprParser {
  protected pos = 0;
  /** Inside a comprehension head, `|` ends the head instead of meaning union. */
  private noBar = false;
  /** Brackets open around the current position: inside them a newline ends nothing. */
  protected depth = 0;
  /** Nested constructs open around the current position, against the nesting limit. */
  protected nesting = 0;
  /** Future keywords in effect (all of them in Rego v1). */
  readonly keywords: Set<string>;
  protected readonly tokens: Token[];

  constructor(
    readonly map: SourceMap,
    keywords: Set<string>,
    start = 0,
    end = map.source.length,
    readonly comments: Comment[] = [],
    tokens?: Token[],
  ) {
    this.keywords = keywords;
    this.tokens = tokens ?? tokenize(map, start, end, comments);
  }

  // ---- token helpers ------------------------------------------------------------------

  protected get tok(): Token {
    return this.tokens[this.pos] as Token;
  }

  protected peek(n = 1): Token {
    return this.tokens[Math.min(this.pos + n, this.tokens.length - 1)] as Token;
  }

  protected next(): Token {
    const t = this.tok;
    if (t.kind !== "eof") this.pos++;
    return t;
  }

  protected isSym(text: string, t = this.tok): boolean {
    return t.kind === "symbol" && t.text === text;
  }

  protected isKw(word: string): boolean {
    const t = this.tok;
    if (t.kind !== "ident" || t.text !== word || !this.isKeywordOn(word)) return false;
    const after = this.peek();
    return !(after.kind === "symbol" && after.text === "." && after.start === t.end);
  }

  protected isKeywordOn(word: string): boolean {
    return !["in", "if", "contains", "every"].includes(word) || this.keywords.has(word);
  }

  protected accept(text: string): boolean {
    if (this.isSym(text)) {
      this.pos++;
      return true;
    }
    return false;
  }

  protected expect(text: string): Token {
    if (!this.isSym(text)) throw this.unexpected(`expected ${text}`);
    return this.next();
  }

  /** Opens one level of nesting at `offset`; past the limit, a parse error. */
  protected enter(offset: number): void {
    this.nesting++;
    if (this.nesting > maxNesting) throw this.map.error(offset, nestingMessage());
  }

  protected leave(): void {
    this.nesting--;
  }

  protected unexpected(hint?: string): RegoError {
    const t = this.tok;
    const what = t.kind === "eof" ? "EOF" : `${t.kind === "ident" ? "ident" : "token"} ${t.text}`;
    const msg = `unexpected ${t.kind === "eof" ? "eof token" : what}${hint ? `: ${hint}` : ""}`;
    return this.map.error(t.start, msg);
  }

  protected loc(start: number, end = this.prevEnd()): Loc {
    const { row, col } = this.map.position(start);
    return { file: this.map.file, row, col, start, end };
  }

  protected prevEnd(): number {
    return this.pos > 0 ? (this.tokens[this.pos - 1] as Token).end : 0;
  }

  /** True when the current token cannot continue the previous line's expression. */
  protected atLineBreak(): boolean {
    return this.tok.newline && this.depth === 0;
  }

  // ---- queries and literals -----------------------------------------------------------

  /** Literals up to `close` (or end of input), separated by `;` or newlines. */
  parseQuery(close?: string): Body {
    const depth = this.depth;
    this.depth = 0;
    const body = this.parseLiterals(close);
    this.depth = depth;
    return body;
  }

  private parseLiterals(close?: string): Body {
    const body: Body = [];
    while (!(close ? this.isSym(close) : this.tok.kind === "eof")) {
      if ((this.tok as Token).kind === "eof") throw this.unexpected();
      body.push(this.parseLiteral());
      if (this.accept(";")) continue;
      if (close && this.isSym(close)) break;
      if (this.tok.kind === "eof" || this.tok.newline) continue;
      throw this.unexpected();
    }
    return body;
  }

  parseLiteral(): Expr {
    const start = this.tok.start;
    if (this.isKw("some")) return this.withMods(this.parseSome(), start);
    if (this.isKw("every")) return this.withMods(this.parseEvery(), start);
    const negated = this.isKw("not") && !this.isSym(".", this.peek());
    if (negated) this.next();
    const term = this.parseExpr();
    const expr: TermExpr = { type: "term", term, negated, with: [], loc: this.loc(start) };
    return this.withMods(expr, start);
  }

  private withMods<E extends Expr>(expr: E, start: number): E {
    while (this.isKw("with")) {
      const ws = this.next().start;
      const target = this.parseTerm();
      if (!this.isKw("as")) throw this.unexpected("expected as");
      this.next();
      const value = this.parseIn();
      const mod: WithModifier = { target, value, loc: this.loc(ws) };
      expr.with.push(mod);
    }
    expr.loc = this.loc(start);
    return expr;
  }

  private parseSome(): SomeDecl | SomeIn {
    const start = this.next().start;
    const first = this.parseArith();
    let second: Term | undefined;
    if (this.isSym(",")) {
      const save = this.pos;
      this.next();
      const t = this.parseArith();
      if (this.isKw("in")) second = t;
      else this.pos = save;
    }
    if (this.isKw("in")) {
      this.next();
      const domain = this.parseRelation();
      const key = second ? first : undefined;
      const value = second ?? first;
      return { type: "somein", key, value, domain, negated: false, with: [], loc: this.loc(start) };
    }
    const vars: VarTerm[] = [];
    const addVar = (t: Term) => {
      if (t.type !== "var") throw this.map.error(t.loc.start, "expected var in some declaration");
      vars.push(t);
    };
    addVar(first);
    while (this.accept(",")) addVar(this.parseTerm());
    return { type: "some", vars, negated: false, with: [], loc: this.loc(start) };
  }

  private parseEvery(): EveryExpr {
    const start = this.next().start;
    const first = this.parseTerm();
    let key: Term | undefined;
    let value = first;
    if (this.accept(",")) {
      key = first;
      value = this.parseTerm();
    }
    if (!this.isKw("in")) throw this.unexpected("expected in");
    this.next();
    const domain = this.parseRelation();
    this.enter(this.tok.start);
    this.expect("{");
    const body = this.parseQuery("}");
    this.expect("}");
    this.leave();
    return {
      type: "every",
      key,
      value,
      domain,
      body,
      negated: false,
      with: [],
      loc: this.loc(start),
    };
  }

  // ---- the precedence chain -----------------------------------------------------------

  /** Unification and assignment: the loosest binding operators. */
  parseExpr(): Term {
    const start = this.tok.start;
    const lhs = this.parseIn();
    if (this.atLineBreak()) return lhs;
    if (this.isSym("=") || this.isSym(":=")) {
      const op = this.next().text === "=" ? "eq" : "assign";
      const rhs = this.parseIn();
      return this.call(op, [lhs, rhs], start);
    }
    return lhs;
  }

  parseIn(): Term {
    const start = this.tok.start;
    let lhs = this.parseRelation();
    while (this.isKw("in") && !this.atLineBreak()) {
      this.next();
      const rhs = this.parseRelation();
      lhs = this.call("internal.member_2", [lhs, rhs], start);
    }
    return lhs;
  }

  /** The binary operator at the current token, if any, with its precedence level. */
  private binaryOperator(): { name: string; level: number } | undefined {
    const t = this.tok;
    if (t.kind !== "symbol" || this.atLineBreak()) return undefined;
    if (t.text === "|") return this.noBar ? undefined : { name: "or", level: Level.Or };
    return binaryOps.get(t.text);
  }

  /**
   * Binary operators by precedence climbing: all levels in one loop, so that each bracket
   * of nesting costs a few stack frames rather than one per precedence level. Every level
   * is left-associative.
   */
  private parseOperators(minLevel: number): Term {
    const start = this.tok.start;
    let lhs = this.parseUnary();
    for (let op = this.binaryOperator(); op && op.level >= minLevel; op = this.binaryOperator()) {
      this.next();
      const rhs = this.parseOperators(op.level + 1);
      lhs = this.call(op.name, [lhs, rhs], start);
    }
    return lhs;
  }

  /** Relations and everything that binds tighter: `a + 1 == b`. */
  parseRelation(): Term {
    return this.parseOperators(Level.Relation);
  }

  protected parseArith(): Term {
    return this.parseOperators(Level.Arith);
  }

  private parseUnary(): Term {
    if (this.isSym("-")) {
      const start = this.next().start;
      if (this.tok.kind === "number" && this.tok.start === start + 1) {
        const t = this.next();
        return this.number(`-${t.text}`, start);
      }
      this.enter(start);
      const operand = this.parseUnary();
      this.leave();
      const zero: Term = { type: "scalar", value: 0, loc: this.loc(start, start + 1) };
      return this.call("minus", [zero, operand], start);
    }
    return this.parseTerm();
  }

  protected call(name: string, args: Term[], start: number): Term {
    const loc = this.loc(start);
    return { type: "call", name, op: { type: "var", name, loc }, args, loc };
  }

  private number(text: string, start: number): Term {
    const value = parseNumber(text);
    if (value === undefined) throw this.map.error(start, `invalid number ${text}`);
    return { type: "scalar", value, loc: this.loc(start) };
  }

  // ---- terms --------------------------------------------------------------------------

  /** A primary term followed by any ref and call suffixes. */
  parseTerm(): Term {
    const start = this.tok.start;
    let term = this.parsePrimary();
    while (!this.atLineBreak()) {
      if (this.isSym(".") && this.peek().kind === "ident" && this.peek().start === this.tok.end) {
        this.next();
        const id = this.next();
        const key: Term = { type: "scalar", value: id.text, loc: this.loc(id.start) };
        term = this.extendRef(term, key, start);
      } else if (this.isSym(".") && this.tok.start === this.prevEnd()) {
        this.next();
        throw this.unexpected("expected ident");
      } else if (this.isSym("[") && this.tok.start === this.prevEnd()) {
        this.enter(this.next().start);
        const saved = this.noBar;
        this.noBar = false;
        this.depth++;
        const key = this.parseIn();
        this.depth--;
        this.noBar = saved;
        this.expect("]");
        this.leave();
        term = this.extendRef(term, key, start);
      } else if (this.isSym("(") && this.tok.start === this.prevEnd() && isOperator(term)) {
        term = this.parseCall(term, start);
      } else break;
    }
    return term;
  }

  private extendRef(term: Term, key: Term, start: number): Term {
    // The ref was just built by this parser and is not shared: growing it in place keeps a
    // long ref linear to parse.
    if (term.type === "ref") {
      term.path.push(key);
      term.loc = this.loc(start);
      return term;
    }
    return { type: "ref", head: term, path: [key], loc: this.loc(start) };
  }

  private parseCall(op: Term, start: number): Term {
    this.enter(this.tok.start);
    this.expect("(");
    const args = this.parseList(")");
    this.leave();
    const name = operatorName(op);
    if (name === "set" && args.length === 0)
      return { type: "set", items: [], loc: this.loc(start) };
    return { type: "call", name, op, args, loc: this.loc(start) };
  }

  /** Comma-separated expressions up to `close` (consumed); a trailing comma is allowed. */
  private parseList(close: string): Term[] {
    const saved = this.noBar;
    this.noBar = false;
    this.depth++;
    const items: Term[] = [];
    while (!this.isSym(close)) {
      items.push(this.parseIn());
      if (!this.accept(",")) break;
    }
    this.depth--;
    this.expect(close);
    this.noBar = saved;
    return items;
  }

  private parsePrimary(): Term {
    const t = this.tok;
    const start = t.start;
    switch (t.kind) {
      case "number":
        this.next();
        return this.number(t.text, start);
      case "string":
      case "rawstring":
        this.next();
        return { type: "scalar", value: t.text, loc: this.loc(start) };
      case "template":
        this.next();
        return this.parseTemplate(t);
      case "ident":
        return this.parseIdent();
      case "symbol":
        if (t.text === "[" || t.text === "{") {
          this.enter(start);
          const term = t.text === "[" ? this.parseArray() : this.parseBrace();
          this.leave();
          return term;
        }
        if (t.text === "(") {
          this.enter(this.next().start);
          const saved = this.noBar;
          this.noBar = false;
          this.depth++;
          let inner = this.parseIn();
          if (this.accept(",")) {
            const value = this.parseRelation();
            if (!this.isKw("in")) throw this.unexpected("expected in");
            this.next();
            const coll = this.parseRelation();
            inner = this.call("internal.member_3", [inner, value, coll], start);
          }
          this.noBar = saved;
          this.depth--;
          this.expect(")");
          this.leave();
          return inner;
        }
    }
    throw this.unexpected();
  }

  private parseIdent(): Term {
    const t = this.next();
    const loc = this.loc(t.start);
    if (this.isSym(".") && this.tok.start === t.end) return { type: "var", name: t.text, loc };
    if (t.text === "true") return { type: "scalar", value: true, loc };
    if (t.text === "false") return { type: "scalar", value: false, loc };
    if (t.text === "null") return { type: "scalar", value: null, loc };
    return { type: "var", name: t.text, loc };
  }

  private parseTemplate(t: Token): Term {
    const parts: (string | Expr)[] = [];
    for (const p of t.parts ?? []) {
      if ("text" in p) {
        parts.push(p.text);
        continue;
      }
      const sub = new ExprParser(this.map, this.keywords, p.start, p.end, [], p.tokens);
      sub.nesting = this.nesting;
      sub.enter(p.start);
      const expr = sub.parseLiteral();
      if (sub.tok.kind !== "eof") throw sub.unexpected();
      parts.push(expr);
    }
    return { type: "template", parts, loc: this.loc(t.start) };
  }

  private parseArray(): Term {
    const start = this.next().start;
    if (this.accept("]")) return { type: "array", items: [], loc: this.loc(start) };
    const saved = this.noBar;
    this.noBar = true;
    this.depth++;
    const first = this.parseIn();
    this.depth--;
    this.noBar = false;
    if (this.accept("|")) {
      const body = this.parseQuery("]");
      this.expect("]");
      this.noBar = saved;
      return { type: "arraycompr", term: first, body, loc: this.loc(start) };
    }
    const items = [first];
    if (this.accept(",")) items.push(...this.parseList("]"));
    else this.expect("]");
    this.noBar = saved;
    return { type: "array", items, loc: this.loc(start) };
  }

  private parseBrace(): Term {
    const start = this.next().start;
    if (this.accept("}")) return { type: "object", entries: [], loc: this.loc(start) };
    const saved = this.noBar;
    this.noBar = true;
    this.depth++;
    const first = this.parseIn();
    this.depth--;
    let result: Term;
    if (this.accept(":")) {
      this.depth++;
      const value = this.parseIn();
      this.depth--;
      this.noBar = false;
      if (this.accept("|")) {
        const body = this.parseQuery("}");
        this.expect("}");
        result = { type: "objectcompr", key: first, value, body, loc: this.loc(start) };
      } else {
        result = this.parseObjectRest(first, value, start);
      }
    } else {
      this.noBar = false;
      if (this.accept("|")) {
        const body = this.parseQuery("}");
        this.expect("}");
        result = { type: "setcompr", term: first, body, loc: this.loc(start) };
      } else {
        const items = [first];
        if (this.accept(",")) items.push(...this.parseList("}"));
        else this.expect("}");
        result = { type: "set", items, loc: this.loc(start) };
      }
    }
    this.noBar = saved;
    return result;
  }

  private parseObjectRest(key: Term, value: Term, start: number): Term {
    const entries: [Term, Term][] = [[key, value]];
    this.depth++;
    while (this.accept(",")) {
      if (this.isSym("}")) break;
      const k = this.parseIn();
      this.expect(":");
      entries.push([k, this.parseIn()]);
    }
    this.depth--;
    this.expect("}");
    return { type: "object", entries, loc: this.loc(start) };
  }
}

/** True for a var or a ref made of a var and string keys: something that can be called. */
function isOperator(t: Term): boolean {
  if (t.type === "var") return true;
  return (
    t.type === "ref" &&
    t.head.type === "var" &&
    t.path.every((p) => p.type === "scalar" && typeof p.value === "string")
  );
}

/** The dotted name of an operator term. */
export function operatorName(t: Term): string {
  if (t.type === "var") return t.name;
  if (t.type === "ref" && t.head.type === "var") {
    return [t.head.name, ...t.path.map((p) => (p.type === "scalar" ? String(p.value) : "?"))].join(
      ".",
    );
  }
  return "?";
}
