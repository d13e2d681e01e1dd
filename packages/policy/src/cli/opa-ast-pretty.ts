/**
 * `rego parse --format pretty`: OPA's debugging view of a module (`ast.Pretty`), one node
 * per line indented one space per level: node types (`module`, `rule`, `ref`, ...), scalar
 * and variable values, `expr index=N` (with `negated`).
 */
import type { Body, Expr, Module, Rule, Term } from "../ast/nodes.js";

export function prettyAst(m: Module, source: string): string {
  const lines: string[] = [];
  const line = (depth: number, text: string) => lines.push(`${" ".repeat(depth)}${text}`);

  const term = (t: Term, d: number): void => {
    switch (t.type) {
      case "scalar":
        if (typeof t.value === "string") line(d, JSON.stringify(t.value));
        else if (typeof t.value === "number" || typeof t.value === "bigint")
          line(
            d,
            source.slice(t.loc.start, t.loc.end).match(/^-?[\d.]/)
              ? source.slice(t.loc.start, t.loc.end)
              : String(t.value),
          );
        else line(d, String(t.value));
        return;
      case "var":
        line(d, t.name);
        return;
      case "ref":
        line(d, "ref");
        for (const x of [t.head, ...t.path]) term(x, d + 1);
        return;
      case "array":
      case "set":
        line(d, t.type);
        for (const x of t.items) term(x, d + 1);
        return;
      case "object":
        line(d, "object");
        for (const [k, v] of t.entries) {
          term(k, d + 1);
          term(v, d + 1);
        }
        return;
      case "arraycompr":
      case "setcompr":
        line(d, t.type === "arraycompr" ? "arraycomprehension" : "setcomprehension");
        term(t.term, d + 1);
        body(t.body, d + 1);
        return;
      case "objectcompr":
        line(d, "objectcomprehension");
        term(t.key, d + 1);
        term(t.value, d + 1);
        body(t.body, d + 1);
        return;
      case "call":
        line(d, "call");
        operator(t.op, t.name, d + 1);
        for (const a of t.args) term(a, d + 1);
        return;
      case "template":
        line(d, "templatestring");
    }
  };

  const operator = (op: Term, name: string, d: number): void => {
    if (op.type === "ref") term(op, d);
    else {
      line(d, "ref");
      line(d + 1, op.type === "var" ? op.name : name);
    }
  };

  const expr = (e: Expr, index: number, d: number): void => {
    line(d, `expr ${e.negated ? "negated " : ""}index=${index}`);
    if (e.type === "term") {
      if (e.term.type === "call") {
        operator(e.term.op, e.term.name, d + 1);
        for (const a of e.term.args) term(a, d + 1);
      } else term(e.term, d + 1);
    } else if (e.type === "some") {
      line(d + 1, "somedecl");
      for (const v of e.vars) term(v, d + 2);
    } else if (e.type === "somein") {
      line(d + 1, "somedecl");
      line(d + 2, "call");
      line(d + 3, "ref");
      line(d + 4, "internal");
      line(d + 4, JSON.stringify(e.key ? "member_3" : "member_2"));
      for (const x of e.key ? [e.key, e.value, e.domain] : [e.value, e.domain]) term(x, d + 3);
    } else {
      line(d + 1, "every");
      if (e.key) term(e.key, d + 2);
      term(e.value, d + 2);
      term(e.domain, d + 2);
      body(e.body, d + 2);
    }
    for (const w of e.with) {
      line(d + 1, "with");
      term(w.target, d + 2);
      term(w.value, d + 2);
    }
  };

  const body = (b: Body, d: number): void => {
    line(d, "body");
    if (b.length === 0) {
      line(d + 1, "expr index=0");
      line(d + 2, "true");
    }
    b.forEach((e, i) => {
      expr(e, i, d + 1);
    });
  };

  const rule = (r: Rule, d: number): void => {
    line(d, "rule");
    line(d + 1, "head");
    const [name, ...path] = r.ref;
    line(d + 2, "ref");
    line(d + 3, name?.type === "scalar" ? String(name.value) : "");
    for (const p of path) term(p, d + 3);
    if (r.args && r.args.length > 0) {
      line(d + 2, "args");
      for (const a of r.args) term(a, d + 3);
    }
    if (r.key) term(r.key, d + 2);
    if (r.value) term(r.value, d + 2);
    else if (r.kind !== "multi") line(d + 2, "true");
    body(r.body, d + 1);
    if (r.elseRule) rule(r.elseRule, d + 1);
  };

  line(0, "module");
  line(1, "package");
  line(2, "ref");
  line(3, "data");
  for (const p of m.pkg) line(3, JSON.stringify(p));
  for (const i of m.imports) {
    line(1, "import");
    term(i.path, 2);
  }
  for (const r of m.rules) rule(r, 1);
  return `${lines.join("\n")}\n`;
}
