/**
 * Recursive-descent parser for expressions and terms, one method per production. The
 * precedence, loosest first: unification (`=`, `:=`) → membership (`in`) → relation
 * (`==` `!=` `<` `<=` `>` `>=`) → union (`|`) → intersection (`&`) → arithmetic (`+` `-`) →
 * factor (`*` `/` `%`) → unary → term; the binary levels share one precedence-climbing loop.
 * Nesting deeper than `maxNesting` is a parse error (nesting.ts). Module-level productions
 * live in module-parser.ts; arrays, sets, objects and comprehensions in collections.ts.
 */
import type {
  Body,
  EveryExpr,
  Expr,
  SomeDecl,
  SomeIn,
  Term,
  TermExpr,
  VarTerm,
  WithModifier,
} from "../ast/nodes.js";
import { parseNumberLiteral } from "../value/number.js";
import { CollectionParser } from "./collections.js";
import type { Token } from "./lexer.js";

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
export class ExprParser extends CollectionParser {
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
    if (negated) {
      this.next();
      // OPA's parser refuses these before reading what follows the keyword.
      for (const kw of ["some", "every"]) {
        if (this.isKw(kw))
          throw this.map.error(
            this.tok.start,
            `unexpected ${kw} keyword: illegal negation of '${kw}'`,
          );
      }
    }
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
      const value = this.parseIn(true);
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
    const lhs = this.parseIn(true);
    if (this.atLineBreak()) return lhs;
    if (this.isSym("=") || this.isSym(":=")) {
      const op = this.next().text === "=" ? "eq" : "assign";
      const rhs = this.parseIn(true);
      return this.call(op, [lhs, rhs], start);
    }
    return lhs;
  }

  /**
   * Membership, `x in xs`; where a whole expression stands (not in a list of elements or
   * arguments) also `k, v in xs`. A `,` not followed by a term and `in` is left alone.
   */
  parseIn(keyValue = false): Term {
    const start = this.tok.start;
    let lhs = this.parseRelation();
    for (;;) {
      if (this.atLineBreak()) return lhs;
      if (this.isKw("in")) {
        this.next();
        const rhs = this.parseRelation();
        lhs = this.call("internal.member_2", [lhs, rhs], start);
        continue;
      }
      const pair =
        keyValue && this.isSym(",") ? this.attempt(() => this.keyValueIn(lhs, start)) : undefined;
      if (!pair) return lhs;
      lhs = pair;
    }
  }

  /** `, v in xs` after the key `k`; throws when that is not what follows. */
  private keyValueIn(key: Term, start: number): Term {
    this.expect(",");
    const value = this.parseRelation();
    if (!this.isKw("in") || this.atLineBreak()) throw this.unexpected("expected in");
    this.next();
    const coll = this.parseRelation();
    return this.call("internal.member_3", [key, value, coll], start);
  }

  /** The binary operator at the current token, if any, with its precedence level. */
  private binaryOperator(): { name: string; level: number } | undefined {
    const t = this.tok;
    if (t.kind !== "symbol" || this.atLineBreak()) return undefined;
    if (t.text === "|") return { name: "or", level: Level.Or };
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

  protected parseUnary(): Term {
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
    const value = parseNumberLiteral(text);
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
        this.depth++;
        const key = this.parseIn(true);
        this.depth--;
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

  protected parseCall(op: Term, start: number): Term {
    this.enter(this.tok.start);
    this.expect("(");
    const args = this.parseList(")");
    this.leave();
    const name = operatorName(op);
    if (name === "set" && args.length === 0)
      return { type: "set", items: [], loc: this.loc(start) };
    return { type: "call", name, op, args, loc: this.loc(start) };
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
        if (t.text === "[" || t.text === "{") return this.parseComposite();
        if (t.text === "(") {
          this.enter(this.next().start);
          this.depth++;
          const inner = this.parseIn(true);
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
}

/** True for a var or a ref made of a var and string keys: something that can be called. */
export function isOperator(t: Term): boolean {
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
