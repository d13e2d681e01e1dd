/**
 * Graph builtins: the `walk` relation (every `[path, value]` inside a document) and
 * `graph.reachable` / `graph.reachable_paths` over an adjacency object `{node: neighbours}`.
 */
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { asObject, operandError } from "./args.js";
import type { BuiltinDef } from "./registry-types.js";

/**
 * Every `[path, value]` pair in `doc`, the document itself first (path `[]`), in OPA's
 * order. Iterative (an explicit stack) because input depth must not become stack depth.
 * Each path array is built fresh for its node and never changed afterwards, so it can be
 * handed out as is.
 */
function* walk(doc: Value): Generator<Value> {
  const stack: [Value[], Value][] = [[[], doc]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [path, node] = top;
    yield [path, node];
    const children = childrenOf(node);
    // Pushed last child first, so that the first child is walked next.
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i] as [Value, Value];
      stack.push([[...path, key], child]);
    }
  }
}

/** The `[key, value]` pairs directly inside a node, sorted; none for a scalar. */
function childrenOf(node: Value): [Value, Value][] {
  if (node instanceof RegoObject) return node.sortedEntries();
  if (Array.isArray(node)) return node.map((v, i) => [i, v]);
  if (node instanceof RegoSet) return node.sorted().map((m) => [m, m]);
  return [];
}

/** Elements of an array or set operand (OPA words this error as `must be {array, set}`). */
function nodesOperand(fn: string, v: Value, pos: number): Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  throw operandError(fn, pos, "{array, set}", v);
}

/** Neighbours listed for a node: an array or set; anything else (e.g. null) has none. */
function neighbours(edges: Value): Value[] {
  if (Array.isArray(edges)) return edges;
  if (edges instanceof RegoSet) return edges.sorted();
  return [];
}

/** Nodes reachable from `initial`, counting only nodes that are keys of the graph. */
function reachable(graph: RegoObject, initial: Value[]): RegoSet {
  const reached = new RegoSet();
  const queue = [...initial];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as Value;
    const edges = graph.get(node);
    if (edges === undefined || reached.has(node)) continue;
    reached.add(node);
    for (const next of neighbours(edges)) if (!reached.has(next)) queue.push(next);
  }
  return reached;
}

/**
 * Adds every maximal path from `path`'s last node to `out`. A path stops at a node without
 * neighbours, before a node missing from the graph, and before a node already seen on this
 * path or by an earlier sibling branch (`seen` is copied per call, as OPA's traversal does).
 */
function collectPaths(graph: RegoObject, path: Value[], seen: RegoSet, out: RegoSet): void {
  const node = path[path.length - 1] as Value;
  const edges = graph.get(node);
  if (edges === undefined) {
    if (path.length > 1) out.add(path.slice(0, -1));
    return;
  }
  const next = neighbours(edges);
  if (next.length === 0) {
    out.add(path);
    return;
  }
  for (const n of next) {
    if (seen.has(n)) {
      out.add(path);
      continue;
    }
    seen.add(n);
    collectPaths(graph, [...path, n], RegoSet.of(seen), out);
  }
}

function reachablePaths(graph: RegoObject, initial: Value[]): RegoSet {
  const out = new RegoSet();
  for (const node of initial) collectPaths(graph, [node], RegoSet.of([node]), out);
  return out;
}

export const graphBuiltins: BuiltinDef[] = [
  {
    name: "walk",
    args: ["any"],
    result: "array",
    impl: () => {
      throw new Error("walk is a relation: call relation()");
    },
    relation: ([doc]) => walk(doc as Value),
  },
  {
    name: "graph.reachable",
    args: ["object", "array | set"],
    result: "set",
    impl: ([g, initial]) =>
      reachable(
        asObject("graph.reachable", g as Value, 1),
        nodesOperand("graph.reachable", initial as Value, 2),
      ),
  },
  {
    name: "graph.reachable_paths",
    args: ["object", "array | set"],
    result: "set[array]",
    impl: ([g, initial]) =>
      reachablePaths(
        asObject("graph.reachable_paths", g as Value, 1),
        nodesOperand("graph.reachable_paths", initial as Value, 2),
      ),
  },
];
