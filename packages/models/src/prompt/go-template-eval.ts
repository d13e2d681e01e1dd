import { LlmsrvError } from "../errors.js";
import type { Expr } from "./go-template-expr.js";
import type { TemplateBudget } from "./template-budget.js";

/** Variables of one block, chained to the enclosing block's (Go's lexical scoping). */
export class Vars {
  private readonly own = new Map<string, unknown>();
  constructor(private readonly parent?: Vars) {}

  has(name: string): boolean {
    return this.own.has(name) || (this.parent?.has(name) ?? false);
  }

  get(name: string): unknown {
    return this.own.has(name) ? this.own.get(name) : this.parent?.get(name);
  }

  /** `$x := v`: a new variable in this block. */
  declare(name: string, value: unknown): void {
    this.own.set(name, value);
  }

  /** `$x = v`: assigns where the variable was declared. */
  assign(name: string, value: unknown): void {
    if (this.own.has(name)) this.own.set(name, value);
    else if (this.parent?.has(name)) this.parent.assign(name, value);
    else fail(`undefined variable "${name}"`);
  }

  child(): Vars {
    return new Vars(this);
  }
}

/** Evaluation scope: the dot, the variables (`$` is the root) and the rendering's budget. */
export interface Scope {
  dot: unknown;
  vars: Vars;
  budget: TemplateBudget;
}

function fail(detail: string): never {
  throw new LlmsrvError("internal", `template: ${detail}`);
}

/** Go's truthiness: false, 0, nil, and empty strings, arrays and maps are false. */
export function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object" && v !== null) return Object.keys(v).length > 0;
  return v !== undefined && v !== null && v !== false && v !== "" && v !== 0;
}

function lengthOf(v: unknown): number {
  if (typeof v === "string" || Array.isArray(v)) return v.length;
  if (typeof v === "object" && v !== null) return Object.keys(v).length;
  return fail(`len of ${typeof v}`);
}

function compare(fn: string, a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b || (typeof a !== "number" && typeof a !== "string"))
    fail(`${fn}: incompatible types`);
  const x = a as number | string;
  const y = b as number | string;
  return fn === "lt" ? x < y : fn === "le" ? x <= y : fn === "gt" ? x > y : x >= y;
}

function index(v: unknown, keys: unknown[]): unknown {
  let cur = v;
  for (const k of keys)
    cur =
      typeof cur === "object" && cur !== null
        ? (cur as Record<string, unknown>)[String(k)]
        : undefined;
  return cur;
}

function slice(v: unknown, args: unknown[]): unknown {
  if (!Array.isArray(v) && typeof v !== "string") fail("slice of a non-list");
  const [from, to] = args.map(Number);
  return v.slice(from ?? 0, to);
}

/** The template functions, called with evaluated arguments (and/or short-circuit below). */
const FUNCTIONS: Readonly<Record<string, (args: unknown[]) => unknown>> = {
  eq: ([a, ...rest]) => rest.some((b) => a === b),
  ne: ([a, b]) => a !== b,
  lt: ([a, b]) => compare("lt", a, b),
  le: ([a, b]) => compare("le", a, b),
  gt: ([a, b]) => compare("gt", a, b),
  ge: ([a, b]) => compare("ge", a, b),
  not: ([a]) => !truthy(a),
  len: ([a]) => lengthOf(a),
  index: ([v, ...keys]) => index(v, keys),
  slice: ([v, ...args]) => slice(v, args),
  json: ([a]) => JSON.stringify(a),
  print: (args) => args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(""),
};

function lookup(v: unknown, path: readonly string[]): unknown {
  let cur = v;
  for (const key of path)
    cur =
      typeof cur === "object" && cur !== null ? (cur as Record<string, unknown>)[key] : undefined;
  return cur;
}

/** Evaluates an expression in a scope; each expression is a step of the budget. */
export function evaluateExpr(e: Expr, scope: Scope): unknown {
  scope.budget.step();
  switch (e.kind) {
    case "dot":
      return scope.dot;
    case "literal":
      return e.value;
    case "var":
      if (!scope.vars.has(e.name)) fail(`undefined variable "${e.name}"`);
      return scope.vars.get(e.name);
    case "field":
      return lookup(evaluateExpr(e.base, scope), e.path);
    case "call": {
      if (e.fn === "and" || e.fn === "or") {
        let last: unknown;
        for (const arg of e.args) {
          last = evaluateExpr(arg, scope);
          if (truthy(last) === (e.fn === "or")) return last;
        }
        return last;
      }
      const fn = FUNCTIONS[e.fn];
      if (!fn) fail(`function "${e.fn}" not defined`);
      const value = fn(e.args.map((a) => evaluateExpr(a, scope)));
      // Strings a function builds (print, json, slice) count as text: `$x = print $x $x` doubles.
      if (typeof value === "string") scope.budget.addText(value.length);
      return value;
    }
  }
}
