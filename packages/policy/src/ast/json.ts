/**
 * The syntax tree as OPA's JSON AST (`rego.parse_module`): terms as {type, value}, rules with
 * head and body, expressions with index and terms.
 */

import { DecimalNumber } from "../value/number.js";
import { fromJSON, type Value } from "../value/value.js";
import type { Body, Expr, Module, Rule, Term } from "./nodes.js";

type Json = Record<string, unknown>;

function scalarType(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "string") return "string";
  return "number";
}

function termJSON(t: Term): Json {
  switch (t.type) {
    case "scalar":
      return {
        type: scalarType(t.value),
        value:
          typeof t.value === "bigint"
            ? Number(t.value)
            : t.value instanceof DecimalNumber
              ? t.value.value
              : t.value,
      };
    case "var":
      return { type: "var", value: t.name };
    case "ref":
      return { type: "ref", value: [termJSON(t.head), ...t.path.map(termJSON)] };
    case "array":
      return { type: "array", value: t.items.map(termJSON) };
    case "set":
      return { type: "set", value: t.items.map(termJSON) };
    case "object":
      return { type: "object", value: t.entries.map(([k, v]) => [termJSON(k), termJSON(v)]) };
    case "arraycompr":
      return {
        type: "arraycomprehension",
        value: { term: termJSON(t.term), body: bodyJSON(t.body) },
      };
    case "setcompr":
      return {
        type: "setcomprehension",
        value: { term: termJSON(t.term), body: bodyJSON(t.body) },
      };
    case "objectcompr":
      return {
        type: "objectcomprehension",
        value: { key: termJSON(t.key), value: termJSON(t.value), body: bodyJSON(t.body) },
      };
    case "call":
      return { type: "call", value: [operatorJSON(t.name), ...t.args.map(termJSON)] };
    case "template":
      return {
        type: "templatestring",
        value: t.parts.map((p) =>
          typeof p === "string" ? { type: "string", value: p } : exprJSON(p, 0),
        ),
      };
  }
}

function operatorJSON(name: string): Json {
  const [head, ...rest] = name.split(".");
  return {
    type: "ref",
    value: [{ type: "var", value: head }, ...rest.map((r) => ({ type: "string", value: r }))],
  };
}

function exprJSON(e: Expr, index: number): Json {
  const out: Json = { index };
  if (e.negated) out.negated = true;
  if (e.type === "term") {
    const t = e.term;
    out.terms = t.type === "call" ? [operatorJSON(t.name), ...t.args.map(termJSON)] : termJSON(t);
  } else if (e.type === "some") {
    out.terms = { type: "some", value: e.vars.map(termJSON) };
  } else if (e.type === "somein") {
    const args = e.key ? [e.key, e.value, e.domain] : [e.value, e.domain];
    out.terms = {
      type: "some",
      value: [
        {
          type: "call",
          value: [operatorJSON(`internal.member_${args.length}`), ...args.map(termJSON)],
        },
      ],
    };
  } else {
    out.terms = {
      type: "every",
      value: {
        key: e.key ? termJSON(e.key) : null,
        value: termJSON(e.value),
        domain: termJSON(e.domain),
        body: bodyJSON(e.body),
      },
    };
  }
  if (e.with.length > 0)
    out.with = e.with.map((w) => ({ target: termJSON(w.target), value: termJSON(w.value) }));
  return out;
}

function bodyJSON(body: Body): Json[] {
  if (body.length === 0) return [{ index: 0, terms: { type: "boolean", value: true } }];
  return body.map(exprJSON);
}

function ruleJSON(r: Rule): Json {
  const head: Json = {
    ref: r.ref.map((t, i) =>
      i === 0 ? { type: "var", value: String((t as { value: unknown }).value) } : termJSON(t),
    ),
  };
  const first = r.ref[0];
  if (first?.type === "scalar" && r.ref.length === 1) head.name = String(first.value);
  if (r.args) head.args = r.args.map(termJSON);
  if (r.key) head.key = termJSON(r.key);
  head.value = r.value
    ? termJSON(r.value)
    : r.kind === "multi"
      ? undefined
      : { type: "boolean", value: true };
  if (r.assign) head.assign = true;
  const out: Json = { head, body: bodyJSON(r.body) };
  if (r.isDefault) out.default = true;
  if (r.elseRule) out.else = ruleJSON(r.elseRule);
  return out;
}

/** OPA's JSON form of a parsed module, as a Rego value. */
export function moduleToValue(m: Module): Value {
  const json: Json = {
    package: {
      path: [{ type: "var", value: "data" }, ...m.pkg.map((p) => ({ type: "string", value: p }))],
    },
  };
  if (m.imports.length > 0)
    json.imports = m.imports.map((i) => ({
      path: termJSON(i.path),
      ...(i.alias ? { alias: i.alias } : {}),
    }));
  if (m.rules.length > 0) json.rules = m.rules.map(ruleJSON);
  return fromJSON(JSON.parse(JSON.stringify(json)));
}
