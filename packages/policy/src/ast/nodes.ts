/**
 * The Rego syntax tree: plain data, every node with its location. The compiler rewrites
 * some nodes in place (var resolution, renaming) but never changes their shape.
 */
import type { RegoNumber } from "../value/number.js";

export interface Loc {
  file: string;
  row: number;
  col: number;
  /** Source offsets, for the text of query expressions. */
  start: number;
  end: number;
}

export type Scalar = null | boolean | RegoNumber | string;

export type Term =
  | ScalarTerm
  | VarTerm
  | RefTerm
  | ArrayTerm
  | ObjectTerm
  | SetTerm
  | ArrayCompr
  | SetCompr
  | ObjectCompr
  | CallTerm
  | TemplateTerm;

export interface ScalarTerm {
  type: "scalar";
  value: Scalar;
  loc: Loc;
}

export interface VarTerm {
  type: "var";
  name: string;
  loc: Loc;
}

/** `head.path[0][path[1]]...`; the head is `data`, `input`, a local var or a composite. */
export interface RefTerm {
  type: "ref";
  head: Term;
  path: Term[];
  loc: Loc;
}

export interface ArrayTerm {
  type: "array";
  items: Term[];
  loc: Loc;
}

export interface ObjectTerm {
  type: "object";
  entries: [Term, Term][];
  loc: Loc;
}

export interface SetTerm {
  type: "set";
  items: Term[];
  loc: Loc;
}

export interface ArrayCompr {
  type: "arraycompr";
  term: Term;
  body: Body;
  loc: Loc;
}

export interface SetCompr {
  type: "setcompr";
  term: Term;
  body: Body;
  loc: Loc;
}

export interface ObjectCompr {
  type: "objectcompr";
  key: Term;
  value: Term;
  body: Body;
  loc: Loc;
}

/** A call of a builtin or a user function; `name` is the dotted operator name. */
export interface CallTerm {
  type: "call";
  name: string;
  /** The operator as written (a var or a ref), resolved by the compiler. */
  op: Term;
  args: Term[];
  loc: Loc;
}

/** `$"text {expr} text"`: literal pieces and embedded expressions. */
export interface TemplateTerm {
  type: "template";
  parts: (string | Expr)[];
  loc: Loc;
}

export interface WithModifier {
  target: Term;
  value: Term;
  loc: Loc;
}

/** One literal of a body. */
export type Expr = TermExpr | SomeDecl | SomeIn | EveryExpr;

interface ExprBase {
  negated: boolean;
  with: WithModifier[];
  loc: Loc;
}

/** An expression: a call (`eq`, `assign`, builtins, functions) or a term tested for truth. */
export interface TermExpr extends ExprBase {
  type: "term";
  term: Term;
}

/** `some x, y` */
export interface SomeDecl extends ExprBase {
  type: "some";
  vars: VarTerm[];
}

/** `some k, v in domain` / `some v in domain` */
export interface SomeIn extends ExprBase {
  type: "somein";
  key?: Term;
  value: Term;
  domain: Term;
}

/** `every k, v in domain { body }` */
export interface EveryExpr extends ExprBase {
  type: "every";
  key?: Term;
  value: Term;
  domain: Term;
  body: Body;
}

export type Body = Expr[];

export type RuleKind = "single" | "multi" | "func";

export interface Rule {
  kind: RuleKind;
  /** Head reference: first element is the rule name (a string scalar), then path terms. */
  ref: Term[];
  args?: Term[];
  /** Element of a `contains` rule. */
  key?: Term;
  /** Value of a single-value or function rule (defaults to `true`). */
  value?: Term;
  assign: boolean;
  isDefault: boolean;
  body: Body;
  elseRule?: Rule;
  loc: Loc;
  module: Module;
  annotations?: Annotation[];
}

export interface Import {
  path: Term;
  alias?: string;
  loc: Loc;
}

export interface Annotation {
  scope: string;
  /** The annotation's fields as written (title, description, authors, ...). */
  fields: Record<string, unknown>;
  loc: Loc;
}

export interface Module {
  file: string;
  /** Package path without the `data` prefix, e.g. ["a", "b"]. */
  pkg: string[];
  pkgLoc: Loc;
  imports: Import[];
  rules: Rule[];
  v0: boolean;
  annotations: Annotation[];
}

/** The keywords that start literals or rules. */
export const keywords = new Set([
  "as",
  "default",
  "else",
  "false",
  "import",
  "package",
  "not",
  "null",
  "true",
  "with",
  "some",
  "in",
  "if",
  "contains",
  "every",
]);
