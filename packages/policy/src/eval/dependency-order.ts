/**
 * Long rule dependency chains. Computing a rule's value evaluates the rules it references
 * inside its own evaluation, so a chain of thousands of rules (`r1 := r0 + 1`, ...) would
 * nest thousands of rule evaluations. Past a depth, the evaluator first computes the rule's
 * dependencies deepest first (each then finds its own dependencies cached, one level deep),
 * and only then the rule itself.
 */
import { dependencies } from "../compile/recursion.js";
import type { RuleNode } from "../compile/tree.js";

/** Nested rule evaluations past which dependencies are computed first, deepest first. */
export const WARM_RULE_DEPTH = 48;

/** Each node's static dependencies, computed on first use (compiled trees never change). */
const depsOf = new WeakMap<RuleNode, RuleNode[]>();

/** The rule nodes `node`'s rules reference (static: computed keys are not followed). */
export function staticDeps(root: RuleNode, node: RuleNode): RuleNode[] {
  let deps = depsOf.get(node);
  if (deps === undefined) {
    deps = [...dependencies(root, node)];
    depsOf.set(node, deps);
  }
  return deps;
}

/**
 * The rule nodes `start` depends on, each after its own dependencies (post-order, with an
 * explicit stack: the chain can be thousands long). Nodes for which `known` holds are
 * neither listed nor searched; `start` itself is not listed.
 */
export function dependencyOrder(
  root: RuleNode,
  start: RuleNode,
  known: (n: RuleNode) => boolean,
): RuleNode[] {
  const order: RuleNode[] = [];
  const seen = new Set<RuleNode>([start]);
  const stack: { node: RuleNode; next: number }[] = [{ node: start, next: 0 }];
  for (let top = stack[0]; top; top = stack[stack.length - 1]) {
    const deps = staticDeps(root, top.node);
    const d = deps[top.next++];
    if (d === undefined) {
      stack.pop();
      if (top.node !== start) order.push(top.node);
      continue;
    }
    if (seen.has(d) || known(d)) continue;
    seen.add(d);
    stack.push({ node: d, next: 0 });
  }
  return order;
}
