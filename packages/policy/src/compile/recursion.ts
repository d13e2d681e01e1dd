/**
 * Recursion detection: a rule (or function) whose evaluation can reach itself through the
 * documents and functions it references is a `rego_recursion_error`.
 */
import type { Term } from "../ast/nodes.js";
import { RegoError } from "../errors.js";
import { visitRule } from "./calls.js";
import { descendants, type RuleNode } from "./tree.js";

/** The rule nodes a `data` ref can reach: the node it names, or every node below it. */
function refTargets(root: RuleNode, path: (string | undefined)[], out: Set<RuleNode>): void {
  let node = root;
  for (const key of path) {
    if (node.hasRules) {
      out.add(node);
      return;
    }
    // A computed key: the target is only known at run time, where recursion is caught.
    if (key === undefined) return;
    const next = node.children.get(key);
    if (!next) return;
    node = next;
  }
  collectAll(node, out);
}

/** Every node at or below `node` that has rules (iterative: the tree can be deep). */
function collectAll(node: RuleNode, out: Set<RuleNode>): void {
  for (const n of descendants(node)) if (n.hasRules) out.add(n);
}

/** The rule nodes whose values `node`'s rules can reference (as far as known before evaluation). */
export function dependencies(root: RuleNode, node: RuleNode): Set<RuleNode> {
  const out = new Set<RuleNode>();
  const heads = new WeakSet<Term>();
  const visit = (t: Term) => {
    if (t.type === "ref") heads.add(t.head);
    if (t.type === "ref" && t.head.type === "var" && t.head.name === "data") {
      const path = t.path.map((p) =>
        p.type === "scalar" && typeof p.value === "string" ? p.value : undefined,
      );
      refTargets(root, path, out);
    } else if (t.type === "var" && t.name === "data" && !heads.has(t)) {
      collectAll(root, out);
    } else if (t.type === "call" && t.name.startsWith("data.")) {
      const target = root.find(t.name.split(".").slice(1));
      if (target) out.add(target);
    }
  };
  for (const r of node.rules) visitRule(r.rule, visit);
  if (node.defaultRule) visitRule(node.defaultRule, visit);
  return out;
}

/** Reports every cycle among rule nodes once. */
export function checkRecursion(root: RuleNode, errors: RegoError[]): void {
  const nodes = descendants(root).filter((n) => n.hasRules);
  const deps = new Map<RuleNode, RuleNode[]>();
  for (const n of nodes) deps.set(n, [...dependencies(root, n)]);
  const done = new Set<RuleNode>();
  const reported = new Set<RuleNode>();
  for (const n of nodes) if (!done.has(n)) search(n, deps, done, reported, errors);
}

/**
 * Depth-first search from `start` with an explicit stack: a chain of dependencies thousands
 * of rules long must not overflow the JavaScript stack.
 */
function search(
  start: RuleNode,
  deps: Map<RuleNode, RuleNode[]>,
  done: Set<RuleNode>,
  reported: Set<RuleNode>,
  errors: RegoError[],
): void {
  const path: RuleNode[] = [start];
  const next: number[] = [0];
  const onPath = new Map<RuleNode, number>([[start, 0]]);
  while (path.length > 0) {
    const top = path.length - 1;
    const n = path[top] as RuleNode;
    const d = (deps.get(n) ?? [])[next[top] as number];
    if (!d) {
      path.pop();
      next.pop();
      onPath.delete(n);
      done.add(n);
      continue;
    }
    next[top] = (next[top] as number) + 1;
    const at = onPath.get(d);
    if (at !== undefined) {
      if (!reported.has(d)) {
        reported.add(d);
        errors.push(cycleError(d, path.slice(at)));
      }
    } else if (!done.has(d)) {
      onPath.set(d, path.length);
      path.push(d);
      next.push(0);
    }
  }
}

function cycleError(d: RuleNode, cycle: RuleNode[]): RegoError {
  const names = [...cycle.map((x) => x.dottedPath), d.dottedPath];
  const loc = (d.rules[0]?.rule ?? d.defaultRule)?.loc;
  return new RegoError(
    "rego_recursion_error",
    `rule ${d.dottedPath} is recursive: ${names.join(" -> ")}`,
    loc ? { file: loc.file, row: loc.row, col: loc.col } : undefined,
  );
}
