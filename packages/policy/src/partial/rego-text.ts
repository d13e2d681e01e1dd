/**
 * Residual queries and support modules as Rego text (v1 syntax), for `--format pretty` and
 * for evaluating residuals again: infix operators written infix (nested ones in
 * parentheses), `.key` where the key is a plain name, one expression per line.
 */
import type { Body, Expr, Module, Rule, Term } from "../ast/nodes.js";
import { keywords } from "../ast/nodes.js";
import { infixOf, isMember3, needsParens } from "../ast/operators.js";
import { formatValue } from "../value/format.js";

const plainName = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function termText(t: Term): string {
  switch (t.type) {
    case "scalar":
      return formatValue(t.value);
    case "var":
      return t.name;
    case "ref": {
      return termText(t.head) + t.path.map(pathText).join("");
    }
    case "array":
      return `[${t.items.map(termText).join(", ")}]`;
    case "set":
      return t.items.length === 0 ? "set()" : `{${t.items.map(termText).join(", ")}}`;
    case "object":
      return `{${t.entries.map(([k, v]) => `${termText(k)}: ${termText(v)}`).join(", ")}}`;
    case "arraycompr":
      return `[${termText(t.term)} | ${bodyInline(t.body)}]`;
    case "setcompr":
      return `{${termText(t.term)} | ${bodyInline(t.body)}}`;
    case "objectcompr":
      return `{${termText(t.key)}: ${termText(t.value)} | ${bodyInline(t.body)}}`;
    case "call":
      return callText(t, true);
    case "template":
      return templateText(t);
  }
}

/** `$"text {expr}"`: literal braces escaped as `\{`. */
function templateText(t: Extract<Term, { type: "template" }>): string {
  const parts = t.parts.map((p) =>
    typeof p === "string"
      ? JSON.stringify(p).slice(1, -1).replaceAll("{", "\\{")
      : `{${exprText(p)}}`,
  );
  return `$"${parts.join("")}"`;
}

function pathText(p: Term): string {
  if (
    p.type === "scalar" &&
    typeof p.value === "string" &&
    plainName.test(p.value) &&
    !keywords.has(p.value)
  )
    return `.${p.value}`;
  return `[${termText(p)}]`;
}

function callText(t: Extract<Term, { type: "call" }>, _nested: boolean): string {
  const infix = infixOf(t);
  if (infix) {
    const [a, b] = t.args as [Term, Term];
    return `${operand(a, infix.level, false)} ${infix.text} ${operand(b, infix.level, true)}`;
  }
  if (isMember3(t)) {
    const [k, v, c] = t.args as [Term, Term, Term];
    return `${termText(k)}, ${termText(v)} in ${termText(c)}`;
  }
  const op = t.op.type === "ref" ? termText(t.op) : t.name;
  return `${op}(${t.args.map(termText).join(", ")})`;
}

/** An operand of an infix operator, in parentheses where precedence needs them. */
function operand(t: Term, level: number, right: boolean): string {
  return needsParens(t, level, right) ? `(${termText(t)})` : termText(t);
}

export function exprText(e: Expr): string {
  let s = e.negated ? "not " : "";
  switch (e.type) {
    case "term":
      s += e.term.type === "call" ? callText(e.term, false) : termText(e.term);
      break;
    case "some":
      s += `some ${e.vars.map((v) => v.name).join(", ")}`;
      break;
    case "somein":
      s += `some ${e.key ? `${termText(e.key)}, ` : ""}${termText(e.value)} in ${termText(e.domain)}`;
      break;
    case "every":
      s += `every ${e.key ? `${termText(e.key)}, ` : ""}${termText(e.value)} in ${termText(e.domain)} { ${bodyInline(e.body)} }`;
      break;
  }
  for (const w of e.with) s += ` with ${termText(w.target)} as ${termText(w.value)}`;
  return s;
}

function bodyInline(body: Body): string {
  return body.length === 0 ? "true" : body.map(exprText).join("; ");
}

/** A residual query, one expression per line (`true` when it is empty). */
export function bodyText(body: Body): string {
  return body.length === 0 ? "true" : body.map(exprText).join("\n");
}

function headText(r: Rule): string {
  const [name, ...path] = r.ref;
  let s = name?.type === "scalar" ? String(name.value) : "";
  s += path.map(pathText).join("");
  if (r.args) s += `(${r.args.map(termText).join(", ")})`;
  if (r.kind === "multi" && r.key) s += ` contains ${termText(r.key)}`;
  const v = r.value;
  const plainTrue = v?.type === "scalar" && v.value === true && !r.isDefault && r.body.length > 0;
  if (v && !plainTrue) s += ` := ${v.type === "call" ? callText(v, false) : termText(v)}`;
  return s;
}

function ruleText(r: Rule): string {
  if (r.isDefault) return `default ${headText(r)}`;
  if (r.body.length === 0 && !r.elseRule)
    return r.kind === "multi" || r.value ? headText(r) : `${headText(r)} := true`;
  let s = `${headText(r)} if {\n${r.body.map((e) => `\t${exprText(e)}`).join("\n") || "\ttrue"}\n}`;
  for (let e = r.elseRule; e; e = e.elseRule) {
    const v = e.value
      ? ` := ${e.value.type === "call" ? callText(e.value, false) : termText(e.value)}`
      : "";
    s +=
      e.body.length === 0
        ? ` else${v}`
        : ` else${v} if {\n${e.body.map((x) => `\t${exprText(x)}`).join("\n")}\n}`;
  }
  return s;
}

/** A support module as Rego source. */
export function moduleText(m: Module): string {
  return `package ${m.pkg.join(".")}\n\n${m.rules.map(ruleText).join("\n\n")}\n`;
}
