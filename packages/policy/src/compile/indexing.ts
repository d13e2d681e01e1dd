/**
 * Rule indexing: when many rules of one document each test `input.<path> == <constant>`
 * (or `=`), only the rules whose constant matches the input's value are evaluated.
 */
import type { Term } from "../ast/nodes.js";
import { canonicalKey, type Value } from "../value/value.js";
import type { CompiledRule } from "./tree.js";

/** Fewer rules than this are evaluated one by one. */
const minRules = 4;

/** Rules of one document grouped by the constant their body tests `input.<path>` against. */
export class RuleIndex {
  constructor(
    /** Keys under `input` that every indexed rule tests. */
    readonly inputPath: string[],
    private readonly byValue: Map<string, CompiledRule[]>,
    private readonly always: CompiledRule[],
    private readonly order: Map<CompiledRule, number>,
  ) {}

  /** The rules that can match when `input.<path>` has the value `v` (undefined: absent). */
  candidates(v: Value | undefined): CompiledRule[] {
    const hits = v === undefined ? undefined : this.byValue.get(canonicalKey(v));
    if (!hits) return this.always;
    if (this.always.length === 0) return hits;
    return [...hits, ...this.always].sort(
      (a, b) => (this.order.get(a) as number) - (this.order.get(b) as number),
    );
  }
}

/** `input.a.b` as ["a", "b"]; undefined for anything else. */
function inputPath(t: Term): string[] | undefined {
  if (t.type !== "ref" || t.head.type !== "var" || t.head.name !== "input") return undefined;
  const out: string[] = [];
  for (const p of t.path) {
    if (p.type !== "scalar" || typeof p.value !== "string") return undefined;
    out.push(p.value);
  }
  return out;
}

/** The (input path, constant) a rule's body tests, if its body starts with such a test. */
function indexKey(rule: CompiledRule): { path: string; value: Value } | undefined {
  if (rule.elseRule) return undefined;
  for (const e of rule.rule.body) {
    if (e.type !== "term" || e.negated || e.with.length > 0) continue;
    const t = e.term;
    if (t.type !== "call" || (t.name !== "eq" && t.name !== "equal") || t.args.length !== 2)
      continue;
    const [a, b] = t.args as [Term, Term];
    for (const [ref, c] of [
      [a, b],
      [b, a],
    ] as [Term, Term][]) {
      const path = inputPath(ref);
      if (path && c.type === "scalar") return { path: JSON.stringify(path), value: c.value };
    }
  }
  return undefined;
}

/** Builds an index for the rules of one node, or undefined when not worth it. */
export function buildIndex(rules: CompiledRule[]): RuleIndex | undefined {
  if (rules.length < minRules) return undefined;
  const keys = rules.map(indexKey);
  const counts = new Map<string, number>();
  for (const k of keys) if (k) counts.set(k.path, (counts.get(k.path) ?? 0) + 1);
  let best: string | undefined;
  for (const [p, n] of counts) if (!best || n > (counts.get(best) as number)) best = p;
  if (!best || (counts.get(best) as number) < minRules) return undefined;
  const byValue = new Map<string, CompiledRule[]>();
  const always: CompiledRule[] = [];
  const order = new Map<CompiledRule, number>();
  rules.forEach((r, i) => {
    order.set(r, i);
    const k = keys[i];
    if (k && k.path === best) {
      const ck = canonicalKey(k.value);
      const list = byValue.get(ck) ?? [];
      list.push(r);
      byValue.set(ck, list);
    } else always.push(r);
  });
  return new RuleIndex(JSON.parse(best) as string[], byValue, always, order);
}
