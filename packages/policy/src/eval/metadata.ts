/**
 * `rego.metadata.chain()` and `rego.metadata.rule()`: the METADATA annotations that apply to
 * the rule being evaluated, from the rule outwards to its packages.
 */
import type { Annotation, Module, Rule } from "../ast/nodes.js";
import { rulePath } from "../ast/rule-path.js";
import { fromJSON, RegoObject, type Value } from "../value/value.js";

/** `Name <email>` → {name, email}, as OPA normalises authors. */
function author(a: unknown): unknown {
  if (typeof a !== "string") return a;
  const m = /^(.*?)\s*<([^>]+)>\s*$/.exec(a);
  if (!m) return { name: a.trim() };
  return m[1] ? { name: m[1], email: m[2] } : { email: m[2] };
}

/** An annotation as OPA presents it: its fields, normalised, plus `scope`. */
export function annotationValue(a: Annotation): Value {
  const fields: Record<string, unknown> = { ...a.fields, scope: a.scope };
  if (Array.isArray(fields.authors)) fields.authors = fields.authors.map(author);
  if (Array.isArray(fields.related_resources)) {
    fields.related_resources = fields.related_resources.map((r) =>
      typeof r === "string" ? { ref: r } : r,
    );
  }
  return fromJSON(fields);
}

function entry(path: string[], annotation?: Annotation): Value {
  const o = new RegoObject();
  o.set("path", path);
  if (annotation) o.set("annotations", annotationValue(annotation));
  return o;
}

/** The rule-scope annotations of `rule`, the block nearest the rule first, as OPA orders them. */
function ruleScope(rule: Rule): Annotation[] {
  const own = (rule.annotations ?? []).filter((a) => a.scope === "rule");
  return own.sort((a, b) => b.loc.row - a.loc.row || b.loc.col - a.loc.col);
}

/** The annotation chain of `rule`: rule, document, package and subpackages scopes. */
export function metadataChain(rule: Rule, rulesAtPath: Rule[], modules: Module[]): Value {
  const path = rulePath(rule);
  const own = ruleScope(rule);
  const chain: Value[] = own.length > 0 ? own.map((a) => entry(path, a)) : [entry(path)];
  for (const r of rulesAtPath) {
    for (const a of r.annotations ?? []) if (a.scope === "document") chain.push(entry(path, a));
  }
  const pkg = rule.module.pkg;
  for (const m of modules) {
    if (m.pkg.join(".") !== pkg.join(".")) continue;
    for (const a of m.annotations) if (a.scope === "package") chain.push(entry(pkg, a));
  }
  for (let n = pkg.length; n >= 0; n--) {
    const prefix = pkg.slice(0, n);
    for (const m of modules) {
      if (m.pkg.join(".") !== prefix.join(".")) continue;
      for (const a of m.annotations) if (a.scope === "subpackages") chain.push(entry(prefix, a));
    }
  }
  return chain;
}

/** The rule-scope annotation nearest `rule`, or an empty object. */
export function metadataRule(rule: Rule): Value {
  const own = ruleScope(rule)[0];
  return own ? annotationValue(own) : new RegoObject();
}
