/**
 * `rego parse --format pretty`: OPA's debugging view of a module (`ast.Pretty`), one node
 * per line indented one space per level: node types (`module`, `rule`, `ref`, ...), scalar
 * and variable values, `expr index=N` (with `negated`).
 */
import type { Body, Expr, Module, Rule, Term } from "../ast/nodes.js";

class PrettyTree {
  readonly lines: string[] = [];

  constructor(private readonly source: string) {}

  private line(depth: number, text: string): void {
    this.lines.push(`${" ".repeat(depth)}${text}`);
  }

  module(m: Module): void {
    this.line(0, "module");
    this.line(1, "package");
    this.line(2, "ref");
    this.line(3, "data");
    for (const p of m.pkg) this.line(3, JSON.stringify(p));
    for (const i of m.imports) {
      this.line(1, "import");
      this.term(i.path, 2);
    }
    for (const r of m.rules) this.rule(r, 1);
  }

  private rule(r: Rule, d: number): void {
    this.line(d, "rule");
    this.line(d + 1, "head");
    const [name, ...path] = r.ref;
    this.line(d + 2, "ref");
    this.line(d + 3, name?.type === "scalar" ? String(name.value) : "");
    for (const p of path) this.term(p, d + 3);
    if (r.args && r.args.length > 0) {
      this.line(d + 2, "args");
      for (const a of r.args) this.term(a, d + 3);
    }
    if (r.key) this.term(r.key, d + 2);
    if (r.value) this.term(r.value, d + 2);
    else if (r.kind !== "multi") this.line(d + 2, "true");
    this.body(r.body, d + 1);
    if (r.elseRule) this.rule(r.elseRule, d + 1);
  }

  private body(b: Body, d: number): void {
    this.line(d, "body");
    if (b.length === 0) {
      this.line(d + 1, "expr index=0");
      this.line(d + 2, "true");
    }
    b.forEach((e, i) => {
      this.expr(e, i, d + 1);
    });
  }

  private expr(e: Expr, index: number, d: number): void {
    this.line(d, `expr ${e.negated ? "negated " : ""}index=${index}`);
    if (e.type === "term") {
      if (e.term.type === "call") {
        this.operator(e.term.op, e.term.name, d + 1);
        for (const a of e.term.args) this.term(a, d + 1);
      } else this.term(e.term, d + 1);
    } else if (e.type === "some") {
      this.line(d + 1, "somedecl");
      for (const v of e.vars) this.term(v, d + 2);
    } else if (e.type === "somein") {
      this.line(d + 1, "somedecl");
      this.line(d + 2, "call");
      this.line(d + 3, "ref");
      this.line(d + 4, "internal");
      this.line(d + 4, JSON.stringify(e.key ? "member_3" : "member_2"));
      for (const x of e.key ? [e.key, e.value, e.domain] : [e.value, e.domain]) this.term(x, d + 3);
    } else {
      this.line(d + 1, "every");
      if (e.key) this.term(e.key, d + 2);
      this.term(e.value, d + 2);
      this.term(e.domain, d + 2);
      this.body(e.body, d + 2);
    }
    for (const w of e.with) {
      this.line(d + 1, "with");
      this.term(w.target, d + 2);
      this.term(w.value, d + 2);
    }
  }

  private operator(op: Term, name: string, d: number): void {
    if (op.type === "ref") this.term(op, d);
    else {
      this.line(d, "ref");
      this.line(d + 1, op.type === "var" ? op.name : name);
    }
  }

  private term(t: Term, d: number): void {
    switch (t.type) {
      case "scalar":
        this.line(d, this.scalar(t));
        return;
      case "var":
        this.line(d, t.name);
        return;
      case "ref":
        this.line(d, "ref");
        for (const x of [t.head, ...t.path]) this.term(x, d + 1);
        return;
      case "array":
      case "set":
        this.line(d, t.type);
        for (const x of t.items) this.term(x, d + 1);
        return;
      case "object":
        this.line(d, "object");
        for (const [k, v] of t.entries) {
          this.term(k, d + 1);
          this.term(v, d + 1);
        }
        return;
      case "call":
        this.line(d, "call");
        this.operator(t.op, t.name, d + 1);
        for (const a of t.args) this.term(a, d + 1);
        return;
      default:
        this.comprehension(t, d);
    }
  }

  private comprehension(t: Term, d: number): void {
    if (t.type === "arraycompr" || t.type === "setcompr") {
      this.line(d, t.type === "arraycompr" ? "arraycomprehension" : "setcomprehension");
      this.term(t.term, d + 1);
      this.body(t.body, d + 1);
    } else if (t.type === "objectcompr") {
      this.line(d, "objectcomprehension");
      this.term(t.key, d + 1);
      this.term(t.value, d + 1);
      this.body(t.body, d + 1);
    } else this.line(d, "templatestring");
  }

  /** Strings quoted, numbers as written, booleans and null as words. */
  private scalar(t: Extract<Term, { type: "scalar" }>): string {
    if (typeof t.value === "string") return JSON.stringify(t.value);
    if (typeof t.value === "number" || typeof t.value === "bigint") {
      const written = this.source.slice(t.loc.start, t.loc.end);
      return /^-?[\d.]/.test(written) ? written : String(t.value);
    }
    return String(t.value);
  }
}

export function prettyAst(m: Module, source: string): string {
  const tree = new PrettyTree(source);
  tree.module(m);
  return `${tree.lines.join("\n")}\n`;
}
