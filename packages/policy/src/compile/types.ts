/**
 * Static type checking of builtin calls: where an operand's type is known at compile time
 * (literals, comprehensions, template strings, results of other builtins, other rules and
 * functions whose every value has one such type), it must fit the builtin's declared operand
 * type, else `rego_type_error`. Unknown types always pass, so the check only rejects calls
 * that could never succeed.
 */
import type { Rule, Term } from "../ast/nodes.js";
import { lookupBuiltin } from "../builtins/registry.js";
import { RegoError } from "../errors.js";
import { visitExpr, visitRule } from "./calls.js";
import type { RuleNode } from "./tree.js";

export type Kind = "null" | "boolean" | "number" | "string" | "array" | "set" | "object";
const kinds = new Set<string>(["null", "boolean", "number", "string", "array", "set", "object"]);

/** The top-level kinds a type allows; undefined means any. */
export function typeKinds(notation: string): Set<Kind> | undefined {
  const out = new Set<Kind>();
  let depth = 0;
  let part = "";
  const flush = (): boolean => {
    const name = part.trim().replace(/\[.*$/s, "").trim();
    part = "";
    if (name === "any" || name === "") return false;
    if (!kinds.has(name)) return false;
    out.add(name as Kind);
    return true;
  };
  for (const c of notation) {
    if (c === "[") depth++;
    if (c === "]") depth--;
    if (c === "|" && depth === 0) {
      if (!flush()) return undefined;
    } else part += c;
  }
  if (!flush()) return undefined;
  return out;
}

/** The kind of a rule document or function result, by its `data...` name; undefined: any. */
export type RuleKind = (name: readonly string[]) => Kind | undefined;

/** The kind of a term when it is known without evaluating it. */
function staticKind(t: Term, vars: Map<string, Kind>, rules?: RuleKind): Kind | undefined {
  switch (t.type) {
    case "var":
      return vars.get(t.name);
    case "scalar":
      if (t.value === null) return "null";
      if (typeof t.value === "boolean") return "boolean";
      if (typeof t.value === "string") return "string";
      return "number";
    case "array":
    case "arraycompr":
      return "array";
    case "set":
    case "setcompr":
      return "set";
    case "object":
    case "objectcompr":
      return "object";
    case "template":
      return "string";
    case "call": {
      if (t.name.startsWith("data.")) return rules?.(t.name.split("."));
      const def = lookupBuiltin(t.name);
      const result = def ? typeKinds(def.result) : undefined;
      return result?.size === 1 ? [...result][0] : undefined;
    }
    case "ref": {
      const path = dataPath(t);
      return path ? rules?.(path) : undefined;
    }
    default:
      return undefined;
  }
}

/** `["data", "a", "b"]` for a ref `data.a.b` (or `input.a.b`) of string keys only. */
function dataPath(t: Term): string[] | undefined {
  if (t.type !== "ref" || t.head.type !== "var") return undefined;
  if (t.head.name !== "data" && t.head.name !== "input") return undefined;
  const out = [t.head.name];
  for (const p of t.path) {
    if (p.type !== "scalar" || typeof p.value !== "string") return undefined;
    out.push(p.value);
  }
  return out;
}

/** Kinds of the vars a rule (or query) declares with `:=`, in the order it assigns them. */
function assignedKinds(rule: Rule, rules?: RuleKind): Map<string, Kind> {
  // Vars declared with := have unique names, so the kind of what they are assigned is theirs.
  const vars = new Map<string, Kind>();
  visitRule(rule, (t) => {
    if (t.type !== "call" || t.name !== "assign") return;
    const [lhs, rhs] = t.args as [Term, Term];
    if (lhs.type !== "var" || !lhs.name.includes("$")) return;
    const kind = staticKind(rhs, vars, rules);
    if (kind) vars.set(lhs.name, kind);
  });
  return vars;
}

/**
 * The kinds of rule documents under `root`, computed on demand: a complete rule or function
 * has a kind when every value it (its else chain, its default) can take has the same one;
 * a partial set is a set. Rules met again while their kind is being computed are any.
 */
export function ruleKinds(root: RuleNode): RuleKind {
  const known = new Map<RuleNode, Kind | null>();
  const nodeKind = (node: RuleNode): Kind | undefined => {
    const hit = known.get(node);
    if (hit !== undefined) return hit ?? undefined;
    known.set(node, null);
    let kind: Kind | undefined;
    if (node.isMultiSet) kind = "set";
    else if (node.isComplete || node.isFunction) kind = valuesKind(node);
    known.set(node, kind ?? null);
    return kind;
  };
  const valuesKind = (node: RuleNode): Kind | undefined => {
    const rules: Rule[] = node.rules.map((r) => r.rule);
    if (node.defaultRule) rules.push(node.defaultRule);
    let kind: Kind | undefined;
    for (const rule of rules) {
      const vars = assignedKinds(rule, lookup);
      for (let r: Rule | undefined = rule; r; r = r.elseRule) {
        const k = r.value ? staticKind(r.value, vars, lookup) : "boolean";
        if (!k || (kind && k !== kind)) return undefined;
        kind = k;
      }
    }
    return kind;
  };
  const lookup: RuleKind = (name) => {
    if (name[0] !== "data") return undefined;
    const node = root.find(name.slice(1));
    return node?.hasRules ? nodeKind(node) : undefined;
  };
  return lookup;
}

/** Call terms inside expressions with `with`: what they read may be replaced. */
function replacedCalls(rule: Rule): Set<Term> {
  const out = new Set<Term>();
  visitRule(rule, {
    expr: (e) => {
      if (e.with.length > 0) visitExpr(e, { term: (t) => out.add(t) });
    },
  });
  return out;
}

/**
 * Why `a = b` (or `a := b`) could never unify, as OPA's "match error" says, or undefined:
 * array literals of different lengths, object literals with different constant keys, or
 * terms whose known kinds differ.
 */
function mismatch(a: Term, b: Term, kindOf: (t: Term) => Kind | undefined): boolean {
  if (a.type === "array" && b.type === "array") {
    if (a.items.length !== b.items.length) return true;
    return a.items.some((x, i) => mismatch(x, b.items[i] as Term, kindOf));
  }
  if (a.type === "object" && b.type === "object") {
    const keys = (o: typeof a) =>
      o.entries.map(([k]) => (k.type === "scalar" ? k.value : undefined));
    const ka = keys(a);
    const kb = keys(b);
    if (ka.includes(undefined) || kb.includes(undefined)) return false;
    if (ka.length !== kb.length || ka.some((k) => !kb.includes(k))) return true;
    return a.entries.some(([k, v]) => {
      const other = b.entries.find(
        ([k2]) => k2.type === "scalar" && k.type === "scalar" && k2.value === k.value,
      );
      return other !== undefined && mismatch(v, other[1], kindOf);
    });
  }
  const x = kindOf(a);
  const y = kindOf(b);
  return x !== undefined && y !== undefined && x !== y;
}

/**
 * Reports builtin calls whose operand types can be seen to be wrong. `schemas`: the kinds
 * of `input`/`data` paths that schemas give this rule (schema-check.ts), before rules'.
 */
export function checkTypes(
  rule: Rule,
  errors: RegoError[],
  ruleKind?: RuleKind,
  schemas?: RuleKind,
): void {
  const rules: RuleKind | undefined =
    schemas && ruleKind ? (name) => schemas(name) ?? ruleKind(name) : (schemas ?? ruleKind);
  const vars = assignedKinds(rule, rules);
  const replaced = rules ? replacedCalls(rule) : new Set<Term>();
  visitRule(rule, (t) => {
    if (t.type !== "call") return;
    if ((t.name === "eq" || t.name === "assign") && t.args.length === 2) {
      const lookup = replaced.has(t) ? undefined : rules;
      const [a, b] = t.args as [Term, Term];
      if (mismatch(a, b, (x) => staticKind(x, vars, lookup))) {
        errors.push(
          new RegoError("rego_type_error", "match error", {
            file: t.loc.file,
            row: t.loc.row,
            col: t.loc.col,
          }),
        );
      }
      return;
    }
    const def = lookupBuiltin(t.name);
    if (!def || def.args.length === 0) return;
    const lookup = replaced.has(t) ? undefined : rules;
    const have = t.args.slice(0, def.args.length).map((a) => staticKind(a, vars, lookup));
    const bad = have.some((k, i) => {
      const want = typeKinds(def.args[i] as string);
      return k !== undefined && want !== undefined && !want.has(k);
    });
    if (!bad) return;
    const message = `${t.name}: invalid argument(s)\n\thave: (${have.map((k) => k ?? "any").join(", ")})\n\twant: (${def.args.join(", ")})`;
    errors.push(
      new RegoError("rego_type_error", message, {
        file: t.loc.file,
        row: t.loc.row,
        col: t.loc.col,
      }),
    );
  });
}
