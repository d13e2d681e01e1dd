/**
 * Set builtins: the operators `&` (`and`, intersection) and `|` (`or`, union), the n-ary
 * `intersection` and `union` over a set of sets, and the deprecated `set_diff`.
 */
import { RegoSet, type Value } from "../value/value.js";
import { asSet } from "./args.js";
import type { BuiltinDef } from "./registry-types.js";

/** Members of `a` also in `b`. */
function intersect(a: RegoSet, b: RegoSet): RegoSet {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  const out = new RegoSet();
  for (const v of small) if (large.has(v)) out.add(v);
  return out;
}

/** Members of either. */
function unite(sets: Iterable<RegoSet>): RegoSet {
  const out = new RegoSet();
  for (const s of sets) for (const v of s) out.add(v);
  return out;
}

/** Members of `a` not in `b`. */
function difference(a: RegoSet, b: RegoSet): RegoSet {
  const out = new RegoSet();
  for (const v of a) if (!b.has(v)) out.add(v);
  return out;
}

/** The member sets of a set-of-sets operand; a non-set member gets the same operand error. */
function memberSets(fn: string, v: Value): RegoSet[] {
  return [...asSet(fn, v, 1)].map((x) => asSet(fn, x, 1));
}

/** A builtin of two sets giving a set. */
function binary(name: string, op: (a: RegoSet, b: RegoSet) => RegoSet): BuiltinDef {
  return {
    name,
    args: ["set", "set"],
    result: "set",
    impl: ([a, b]) => op(asSet(name, a as Value, 1), asSet(name, b as Value, 2)),
  };
}

export const setsBuiltins: BuiltinDef[] = [
  binary("and", intersect),
  binary("or", (a, b) => unite([a, b])),
  binary("set_diff", difference),
  {
    name: "intersection",
    args: ["set[set]"],
    result: "set",
    impl: ([v]) => {
      const sets = memberSets("intersection", v as Value);
      if (sets.length === 0) return new RegoSet();
      return sets.reduce(intersect);
    },
  },
  {
    name: "union",
    args: ["set[set]"],
    result: "set",
    impl: ([v]) => unite(memberSets("union", v as Value)),
  },
];
