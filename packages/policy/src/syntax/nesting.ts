/**
 * The nesting limit. The parser, the compiler and the evaluator all recurse over the syntax
 * tree, so a source nested thousands of levels deep would overflow the JavaScript stack.
 * Anything nested deeper than `maxNesting` levels is refused as a `rego_parse_error` instead:
 * while parsing (brackets, braces, parentheses, call operands, unary minus, template
 * expressions), and in the finished tree (every term counts a level, so do each segment of a
 * ref, each operand of an operator chain such as `1 + 2 + 3` and each `else` of a rule).
 * The check of the finished tree is iterative, so it cannot overflow itself.
 */
import type { Expr, Loc, Rule, Term } from "../ast/nodes.js";
import { RegoError } from "../errors.js";

/** The deepest nesting a query or module may have, in levels. */
export const maxNesting = 1000;

/** The message of every nesting error; it names the limit. */
export function nestingMessage(): string {
  return `too deeply nested: more than ${maxNesting} levels (the nesting limit)`;
}

/** A rego_parse_error for nesting that exceeds the limit at `loc`. */
export function nestingError(loc: { file: string; row: number; col: number }): RegoError {
  return new RegoError("rego_parse_error", nestingMessage(), {
    file: loc.file,
    row: loc.row,
    col: loc.col,
  });
}

/** True for a JavaScript stack overflow, the failure the nesting limit exists to prevent. */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

type Node = Term | Expr;

/** Pushes the children of a term with their depth (the term's depth plus one). */
function termChildren(t: Term, depth: number, push: (n: Node, d: number) => void): void {
  switch (t.type) {
    case "ref":
      push(t.head, depth);
      // A ref's segments are walked one after another at run time: each counts a level.
      t.path.forEach((p, i) => {
        push(p, depth + i);
      });
      return;
    case "array":
    case "set":
      for (const x of t.items) push(x, depth);
      return;
    case "object":
      for (const [k, v] of t.entries) {
        push(k, depth);
        push(v, depth);
      }
      return;
    case "call":
      for (const a of t.args) push(a, depth);
      return;
    case "arraycompr":
    case "setcompr":
      push(t.term, depth);
      for (const e of t.body) push(e, depth);
      return;
    case "objectcompr":
      push(t.key, depth);
      push(t.value, depth);
      for (const e of t.body) push(e, depth);
      return;
    case "template":
      for (const p of t.parts) if (typeof p !== "string") push(p, depth);
      return;
    default:
      return;
  }
}

/** Pushes the children of an expression at the expression's own depth. */
function exprChildren(e: Expr, depth: number, push: (n: Node, d: number) => void): void {
  for (const w of e.with) {
    push(w.target, depth);
    push(w.value, depth);
  }
  switch (e.type) {
    case "term":
      push(e.term, depth);
      return;
    case "some":
      for (const v of e.vars) push(v, depth);
      return;
    case "somein":
    case "every":
      if (e.key) push(e.key, depth);
      push(e.value, depth);
      push(e.domain, depth);
      if (e.type === "every") for (const x of e.body) push(x, depth);
      return;
  }
}

function isExpr(n: Node): n is Expr {
  return "negated" in n;
}

/** The location of the first node nested deeper than the limit, if any. */
export function tooDeep(roots: Node[], start = 0): Loc | undefined {
  // Two parallel stacks rather than pairs: no allocation per node.
  const nodes: Node[] = [...roots];
  const depths: number[] = roots.map(() => start);
  const push = (n: Node, d: number) => {
    nodes.push(n);
    depths.push(d);
  };
  while (nodes.length > 0) {
    const node = nodes.pop() as Node;
    const depth = depths.pop() as number;
    if (isExpr(node)) {
      exprChildren(node, depth, push);
      continue;
    }
    if (depth >= maxNesting) return node.loc;
    termChildren(node, depth + 1, push);
  }
  return undefined;
}

/** Every term and literal of a rule and its else chain, with the depth each starts at. */
export function ruleTooDeep(rule: Rule): Loc | undefined {
  let level = 0;
  for (let r: Rule | undefined = rule; r; r = r.elseRule, level++) {
    if (level >= maxNesting) return r.loc;
    const roots: Node[] = [...r.ref, ...(r.args ?? []), ...r.body];
    if (r.key) roots.push(r.key);
    if (r.value) roots.push(r.value);
    const loc = tooDeep(roots, level);
    if (loc) return loc;
  }
  return undefined;
}
