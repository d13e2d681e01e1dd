/**
 * Which rules depend on the unknowns: a rule whose bodies, head or default read an unknown,
 * or refer to such a rule or call such a function, cannot be evaluated now and is inlined
 * (or written as a support rule) instead. Computed once per node, from the rules' text.
 */
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import type { RuleNode } from "../compile/tree.js";
import { isNondeterministic } from "./nondeterministic.js";
import { exprParts } from "./traversal.js";
import { readsUnknown, refPrefix, type UnknownPath } from "./unknowns.js";

/** Where a ref under `data` leads: one rule node and the keys after it, or a whole subtree. */
export type DataTarget =
  | { kind: "node"; node: RuleNode; rest: Term[] }
  | { kind: "subtree"; node: RuleNode }
  | { kind: "base" };

/** True when the node holds rules (a document or a function). */
export function isRuleNode(node: RuleNode): boolean {
  return node.rules.length > 0 || node.defaultRule !== undefined || node.keyedDefaults.length > 0;
}

/** Resolves `data.<path>` against the rule tree. */
export function dataTarget(root: RuleNode, path: readonly Term[]): DataTarget {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    if (isRuleNode(node)) return { kind: "node", node, rest: path.slice(i) };
    const p = path[i] as Term;
    if (p.type !== "scalar" || typeof p.value !== "string") return { kind: "subtree", node };
    const child = node.children.get(p.value);
    if (!child) return { kind: "base" };
    node = child;
  }
  return isRuleNode(node) ? { kind: "node", node, rest: [] } : { kind: "subtree", node };
}

export class Dependence {
  private readonly memo = new Map<RuleNode, boolean>();

  constructor(
    private readonly root: RuleNode,
    private readonly unknowns: readonly UnknownPath[],
    /** Evaluate nondeterministic builtins now (OPA's `nondeterministicBuiltins`). */
    private readonly evalNondeterministic = false,
  ) {}

  /** True when the node's value depends on an unknown. */
  nodeDirty(node: RuleNode): boolean {
    const hit = this.memo.get(node);
    if (hit !== undefined) return hit;
    // Recursion is a compile error; the mark only stops a cycle through a bad tree.
    this.memo.set(node, false);
    const dirty =
      readsUnknown(pathRef(node.path), this.unknowns) ||
      node.rules.some((cr) => this.ruleDirty(cr.rule)) ||
      (node.defaultRule !== undefined && this.ruleDirty(node.defaultRule)) ||
      node.keyedDefaults.some((d) => this.ruleDirty(d.rule));
    this.memo.set(node, dirty);
    return dirty;
  }

  /** True when some node of the subtree depends on an unknown. */
  subtreeDirty(node: RuleNode): boolean {
    if (isRuleNode(node) && this.nodeDirty(node)) return true;
    for (const child of node.children.values()) if (this.subtreeDirty(child)) return true;
    return false;
  }

  private ruleDirty(r: Rule): boolean {
    const terms = [...r.ref, ...(r.args ?? []), r.key, r.value].filter(
      (t): t is Term => t !== undefined,
    );
    if (terms.some((t) => this.termDirty(t)) || this.bodyDirty(r.body)) return true;
    return r.elseRule !== undefined && this.ruleDirty(r.elseRule);
  }

  bodyDirty(body: Body): boolean {
    return body.some((e) => this.exprDirty(e));
  }

  exprDirty(e: Expr): boolean {
    if (e.with.some((w) => this.termDirty(w.value))) return true;
    const { terms, body } = exprParts(e);
    return terms.some((t) => this.termDirty(t)) || this.bodyDirty(body);
  }

  /** True when a ref under `data` reads a rule that depends on an unknown. */
  dataRefDirty(t: Term): boolean {
    if (t.type !== "ref" || t.head.type !== "var" || t.head.name !== "data") return false;
    const target = dataTarget(this.root, t.path);
    if (target.kind === "node") return this.nodeDirty(target.node);
    if (target.kind === "subtree") return this.subtreeDirty(target.node);
    return false;
  }

  /**
   * True when a call is to a user function that depends on an unknown, or to a
   * nondeterministic builtin (kept for evaluation time).
   */
  callDirty(name: string): boolean {
    if (!name.startsWith("data.")) return !this.evalNondeterministic && isNondeterministic(name);
    const node = this.root.find(name.split(".").slice(1));
    return node !== undefined && this.nodeDirty(node);
  }

  /** True when the term (anywhere inside) reads an unknown or a rule that does. */
  termDirty(t: Term): boolean {
    if (readsUnknown(t, this.unknowns) || this.dataRefDirty(t)) return true;
    switch (t.type) {
      case "ref": {
        // A root head (`input.user`) was judged with its keys above.
        const root = t.head.type === "var" && (t.head.name === "input" || t.head.name === "data");
        return (!root && this.termDirty(t.head)) || t.path.some((p) => this.termDirty(p));
      }
      case "array":
      case "set":
        return t.items.some((x) => this.termDirty(x));
      case "object":
        return t.entries.some(([k, v]) => this.termDirty(k) || this.termDirty(v));
      case "arraycompr":
      case "setcompr":
        return this.termDirty(t.term) || this.bodyDirty(t.body);
      case "objectcompr":
        return this.termDirty(t.key) || this.termDirty(t.value) || this.bodyDirty(t.body);
      case "call":
        return this.callDirty(t.name) || t.args.some((a) => this.termDirty(a));
      case "template":
        return t.parts.some((p) => typeof p !== "string" && this.exprDirty(p));
      default:
        return false;
    }
  }
}

/** `data.<path>` as a ref term, for the unknown test. */
function pathRef(path: readonly string[]): Term {
  const loc = { file: "", row: 0, col: 0, start: 0, end: 0 };
  return {
    type: "ref",
    head: { type: "var", name: "data", loc },
    path: path.map((p) => ({ type: "scalar", value: p, loc })),
    loc,
  };
}

export { refPrefix };
