/**
 * Partial evaluation of one query: the residual queries (copies propagated, vars named)
 * and the support modules they need.
 */
import type { Body, Module, Rule, Term } from "../ast/nodes.js";
import { allVars, displayName, shallowExprVars } from "../ast/walk.js";
import { propagateCopies } from "./copy-propagation.js";
import { PartialEvaluator, type PartialSetup } from "./partial-evaluator.js";
import { VarNamer } from "./var-names.js";

/** The result of partial evaluation, as OPA's `PartialQueries`. */
export interface PartialResult {
  /** One body per way the query can hold; none when it never holds. */
  queries: Body[];
  /** Modules of the support rules the queries refer to. */
  support: Module[];
}

/**
 * `[a, b] = x` for a query var `x` is written `x = [a, b]`, as OPA writes the binding of a
 * query var to a composite value.
 */
function outputsFirst(body: Body, outputs: ReadonlySet<string>): Body {
  return body.map((e) => {
    if (e.type !== "term" || e.negated || e.term.type !== "call" || e.term.name !== "eq") return e;
    const [a, b] = e.term.args as [Term, Term];
    const composite =
      a.type === "array" || a.type === "object" || a.type === "set" || a.type === "call";
    if (!composite || b.type !== "var" || !outputs.has(b.name)) return e;
    return { ...e, term: { ...e.term, args: [b, a] } };
  });
}

/** Copy propagation in a support rule's bodies; the head's vars stay. */
function propagateInRule(r: Rule): Rule {
  const head = new Set<string>();
  for (const t of [...r.ref, ...(r.args ?? []), r.key, r.value]) if (t) allVars(t, head);
  return {
    ...r,
    body: propagateCopies(r.body, head),
    elseRule: r.elseRule && propagateInRule(r.elseRule),
  };
}

export function partialEvaluate(setup: PartialSetup, query: Body): PartialResult {
  const outputs = new Set<string>();
  for (const e of query) shallowExprVars(e, outputs);
  // The query's own vars (`x` of `x := ...` is renamed `x$1` by the compiler) keep their names.
  const named = [...outputs].filter(
    (n) => n !== "input" && n !== "data" && !displayName(n).startsWith("_"),
  );
  const keep = new Set(named);
  const shown = new Map(named.map((n) => [n, displayName(n)]));
  const pe = new PartialEvaluator(setup);
  const queries: Body[] = [];
  pe.run(query, named, (body) => {
    queries.push(new VarNamer(shown).body(outputsFirst(propagateCopies(body, keep), keep)));
  });
  const support = pe.support.modules().map((m) => {
    const out: Module = { ...m, rules: [] };
    out.rules = m.rules.map((r) => ({ ...new VarNamer().rule(propagateInRule(r)), module: out }));
    return out;
  });
  return { queries, support };
}
