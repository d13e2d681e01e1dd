/**
 * The one encoder of the syntax tree into OPA's AST JSON, as Go's encoding/json writes OPA's
 * nodes: terms as {"type", "value"} (numbers as written, sets and objects in term order),
 * rules with head and body, expressions with index and terms (an operator call as an array
 * led by the operator ref), comments as base64 text, locations only when asked for. Object
 * keys keep OPA's order (maps sorted by key). `rego parse`, `rego deps`, partial results and
 * /v1/compile print it; json.ts turns it into the `rego.parse_module` value.
 */
import type { Annotation, Body, CallTerm, Expr, Loc, Module, Rule, Term } from "./nodes.js";
import { infixOf } from "./operators.js";
import { compareTerms } from "./term-order.js";

/** A number written as it was in the source. */
export class RawNumber {
  constructor(readonly text: string) {}
}

export type JsonNode = null | boolean | string | number | RawNumber | JsonNode[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonNode;
}

export interface AstJsonOptions {
  locations: boolean;
  comments: boolean;
  /** METADATA annotations (OPA's ProcessAnnotation); default true. */
  annotations?: boolean;
}

export class OpaAstEncoder {
  constructor(
    private readonly source: string,
    private readonly opts: AstJsonOptions,
  ) {}

  private location(loc: Loc): JsonObject {
    const text = Buffer.from(this.source.slice(loc.start, loc.end)).toString("base64");
    return { file: loc.file, row: loc.row, col: loc.col, text };
  }

  /** `{location?, ...fields}`: OPA writes `location` first in term and package objects. */
  private withLoc(loc: Loc | undefined, fields: JsonObject): JsonObject {
    return this.opts.locations && loc ? { location: this.location(loc), ...fields } : fields;
  }

  term(t: Term): JsonObject {
    return this.withLoc(t.loc, this.termValue(t));
  }

  private termValue(t: Term): JsonObject {
    switch (t.type) {
      case "scalar":
        return this.scalar(t);
      case "var":
        return { type: "var", value: t.name };
      case "ref":
        return { type: "ref", value: [this.term(t.head), ...t.path.map((p) => this.term(p))] };
      case "array":
        return { type: "array", value: t.items.map((i) => this.term(i)) };
      case "set":
        // OPA writes a set's elements in its term order.
        return { type: "set", value: [...t.items].sort(compareTerms).map((i) => this.term(i)) };
      case "object": {
        // OPA writes an object's entries sorted by key, in its term order.
        const entries = [...t.entries].sort(([a], [b]) => compareTerms(a, b));
        return { type: "object", value: entries.map(([k, v]) => [this.term(k), this.term(v)]) };
      }
      case "arraycompr":
        return {
          type: "arraycomprehension",
          value: { term: this.term(t.term), body: this.body(t.body, t.loc) },
        };
      case "setcompr":
        return {
          type: "setcomprehension",
          value: { term: this.term(t.term), body: this.body(t.body, t.loc) },
        };
      case "objectcompr":
        return {
          type: "objectcomprehension",
          value: {
            key: this.term(t.key),
            value: this.term(t.value),
            body: this.body(t.body, t.loc),
          },
        };
      case "call":
        return {
          type: "call",
          value: [this.operator(t), ...t.args.map((a) => this.term(a))],
        };
      case "template":
        return {
          type: "templatestring",
          value: { parts: this.templateParts(t), multi_line: this.source[t.loc.start + 1] === "`" },
        };
    }
  }

  /**
   * OPA's parts of a template string: no empty text, a literal scalar as a term, any other
   * expression as an expression parsed on its own (so its index is 0).
   */
  private templateParts(t: Extract<Term, { type: "template" }>): JsonNode[] {
    const out: JsonNode[] = [];
    for (const p of t.parts) {
      if (typeof p === "string") {
        if (p !== "") out.push({ type: "string", value: p });
      } else if (p.type === "term" && p.term.type === "scalar" && !p.negated && !p.with.length) {
        out.push(this.term(p.term));
      } else {
        out.push(this.expr(p, 0));
      }
    }
    return out;
  }

  private scalar(t: Extract<Term, { type: "scalar" }>): JsonObject {
    const v = t.value;
    if (v === null) return { type: "null", value: null };
    if (typeof v === "boolean") return { type: "boolean", value: v };
    if (typeof v === "string") return { type: "string", value: v };
    const written = this.source.slice(t.loc.start, t.loc.end);
    const text = /^-?(\d|\.\d)[\d.eE+-]*$/.test(written) ? written : String(v);
    return { type: "number", value: new RawNumber(text) };
  }

  /**
   * The operator of a call: always a ref, located at its token. A builtin's dotted name is
   * its ref as OPA's Builtin.Ref() splits it: `internal.member_2` → [var internal, "member_2"].
   */
  private operator(call: CallTerm): JsonObject {
    const op = call.op;
    if (op.type === "ref") return this.term(op);
    const loc = this.operatorLoc(call);
    const [head, ...rest] = (op.type === "var" ? op.name : call.name).split(".");
    const parts = [
      this.withLoc(loc, { type: "var", value: head ?? "" }),
      ...rest.map((r) => this.withLoc(loc, { type: "string", value: r })),
    ];
    return this.withLoc(loc, { type: "ref", value: parts });
  }

  /** An infix operator's own token (`==` between the operands), else the call's start. */
  private operatorLoc(call: CallTerm): Loc {
    const infix = infixOf(call);
    const [lhs, rhs] = call.args;
    if (!infix || !lhs || !rhs) return { ...call.loc, end: call.loc.start + call.name.length };
    const at = this.source.indexOf(infix.text, lhs.loc.end);
    if (at < 0 || at >= rhs.loc.start) return call.loc;
    const line = this.source.lastIndexOf("\n", at - 1) + 1;
    const row = call.loc.row + countNewlines(this.source, call.loc.start, at);
    return { ...call.loc, start: at, end: at + infix.text.length, row, col: at - line + 1 };
  }

  expr(e: Expr, index: number): JsonObject {
    const out: JsonObject = { index };
    if (this.opts.locations) out.location = this.location(e.loc);
    if (e.negated) out.negated = true;
    out.terms = this.exprTerms(e);
    if (e.with.length > 0)
      out.with = e.with.map((w) =>
        this.withLoc(w.loc, { target: this.term(w.target), value: this.term(w.value) }),
      );
    return out;
  }

  private exprTerms(e: Expr): JsonNode {
    switch (e.type) {
      case "term": {
        const t = e.term;
        if (t.type !== "call") return this.term(t);
        return [this.operator(t), ...t.args.map((a) => this.term(a))];
      }
      case "some":
        return this.withLoc(e.loc, { symbols: e.vars.map((v) => this.term(v)) });
      case "somein": {
        const args = e.key ? [e.key, e.value, e.domain] : [e.value, e.domain];
        const name = `internal.member_${args.length}`;
        const call = { type: "call", value: [memberRef(name), ...args.map((a) => this.term(a))] };
        return this.withLoc(e.loc, { symbols: [call] });
      }
      case "every":
        return {
          body: this.body(e.body, e.loc),
          domain: this.term(e.domain),
          key: e.key ? this.term(e.key) : null,
          ...(this.opts.locations ? { location: this.location(e.loc) } : {}),
          value: this.term(e.value),
        };
    }
  }

  /** A body; an empty one (a rule without body) is OPA's generated `true`. */
  body(body: Body, at: Loc): JsonNode[] {
    if (body.length > 0) return body.map((e, i) => this.expr(e, i));
    const terms = this.withLoc(at, { type: "boolean", value: true });
    const expr: JsonObject = { index: 0 };
    if (this.opts.locations) expr.location = this.location(at);
    expr.terms = terms;
    return [expr];
  }

  rule(r: Rule): JsonObject {
    const out: JsonObject = {};
    if (this.opts.annotations !== false && r.annotations && r.annotations.length > 0)
      out.annotations = r.annotations.map((a) => this.annotation(a));
    // A generated body sits at the value, or, for a default rule, at the keyword.
    out.body = this.body(r.body, r.isDefault ? ruleLoc(r) : (r.value?.loc ?? ruleLoc(r)));
    if (r.isDefault) out.default = true;
    if (r.elseRule) out.else = this.rule(r.elseRule);
    out.head = this.head(r);
    if (this.opts.locations) out.location = this.location(ruleLoc(r));
    return out;
  }

  /** From the rule's name to the end of its value, key or arguments. */
  private headLoc(r: Rule): Loc {
    const first = r.ref[0]?.loc ?? r.loc;
    const parts = [r.value, r.key, ...(r.args ?? []), ...r.ref].filter((t) => t !== undefined);
    let end = Math.max(...parts.map((t) => t.loc.end));
    if (r.args && !r.value && !r.key) {
      const close = this.source.indexOf(")", end);
      if (close >= 0) end = close + 1;
    }
    return { ...first, end };
  }

  private head(r: Rule): JsonObject {
    const out: JsonObject = {};
    const [name, ...path] = r.ref;
    const nameText = name?.type === "scalar" ? String(name.value) : "";
    if (path.length === 0) out.name = nameText;
    if (r.args && r.args.length > 0) out.args = r.args.map((a) => this.term(a));
    if (r.key) out.key = this.term(r.key);
    if (r.value) out.value = this.term(r.value);
    else if (r.kind !== "multi")
      out.value = this.withLoc(this.headLoc(r), { type: "boolean", value: true });
    if (r.assign) out.assign = true;
    const head = name ? this.withLoc(name.loc, { type: "var", value: nameText }) : null;
    out.ref = [head, ...path.map((p) => this.term(p))];
    if (this.opts.locations) out.location = this.location(this.headLoc(r));
    return out;
  }

  private annotation(a: Annotation): JsonObject {
    const out: JsonObject = { ...(a.fields as JsonObject) };
    if (this.opts.locations) out.location = this.location(a.loc);
    out.scope = a.scope;
    return out;
  }

  module(m: Module): JsonObject {
    // The package's location is its keyword; its path terms share the path's location.
    const keyword = { ...m.pkgLoc, end: m.pkgLoc.start + "package".length };
    let pathStart = keyword.end;
    while (/\s/.test(this.source[pathStart] ?? "")) pathStart++;
    const pathLoc = {
      ...m.pkgLoc,
      start: pathStart,
      col: m.pkgLoc.col + pathStart - m.pkgLoc.start,
    };
    const pkgPath: JsonNode[] = [
      this.withLoc(pathLoc, { type: "var", value: "data" }),
      ...m.pkg.map((p) => this.withLoc(pathLoc, { type: "string", value: p })),
    ];
    const out: JsonObject = { package: this.withLoc(keyword, { path: pkgPath }) };
    if (m.imports.length > 0)
      out.imports = m.imports.map((i) => ({
        ...(i.alias ? { alias: i.alias } : {}),
        ...(this.opts.locations ? { location: this.location(keywordLoc(i.loc, "import")) } : {}),
        path: this.term(i.path),
      }));
    if (this.opts.annotations !== false && m.annotations.length > 0)
      out.annotations = m.annotations.map((a) => this.annotation(a));
    if (m.rules.length > 0) out.rules = m.rules.map((r) => this.rule(r));
    return out;
  }
}

/** A `#` comment of the source: its text after `#` and where it is. */
export interface CommentAt {
  text: string;
  row: number;
  col: number;
  start: number;
  end: number;
}

/** Comments as OPA writes them (Go field names, base64 text, location always). */
export function commentsJson(
  file: string,
  source: string,
  comments: CommentAt[],
  locText: boolean,
): JsonObject[] {
  return comments.map((c) => {
    const loc: JsonObject = { file, row: c.row, col: c.col };
    if (locText) loc.text = Buffer.from(source.slice(c.start, c.end)).toString("base64");
    return { Text: Buffer.from(c.text).toString("base64"), Location: loc };
  });
}

/** The first `word.length` characters of `loc`: a keyword's own location. */
function keywordLoc(loc: Loc, word: string): Loc {
  return { ...loc, end: loc.start + word.length };
}

/** A rule's location; a default rule's is its `default` keyword, as OPA reports it. */
function ruleLoc(r: Rule): Loc {
  return r.isDefault ? keywordLoc(r.loc, "default") : r.loc;
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s[i] === "\n") n++;
  return n;
}

function memberRef(name: string): JsonObject {
  const [head, ...rest] = name.split(".");
  return {
    type: "ref",
    value: [
      { type: "var", value: head ?? name },
      ...rest.map((r) => ({ type: "string", value: r })),
    ],
  };
}

/** JSON text indented by two spaces, numbers as written. */
export function stringifyAst(node: JsonNode, indent = ""): string {
  if (node instanceof RawNumber) return node.text;
  if (node === null || typeof node !== "object") return JSON.stringify(node);
  const inner = `${indent}  `;
  if (Array.isArray(node)) {
    if (node.length === 0) return "[]";
    return `[\n${node.map((n) => inner + stringifyAst(n, inner)).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(node);
  if (entries.length === 0) return "{}";
  const body = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${stringifyAst(v, inner)}`);
  return `{\n${body.join(",\n")}\n${indent}}`;
}
