/**
 * The Rego syntax tree: plain data, every node with its location. The compiler rewrites
 * some nodes in place (var resolution, renaming) but never changes their shape.
 */
import type { RegoNumber } from "../value/number.js";

/** Where a node was written. */
export interface Loc {
  file: string;
  row: number;
  col: number;
  /** Source offsets, for the text of query expressions. */
  start: number;
  end: number;
}

/** The value of a scalar literal. */
export type Scalar = null | boolean | RegoNumber | string;

/** Any term of the language. */
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

/** A null, boolean, number or string literal. */
export interface ScalarTerm {
  type: "scalar";
  value: Scalar;
  loc: Loc;
}

/** A variable (or, before resolution, a rule or import name). */
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

/** An array literal. */
export interface ArrayTerm {
  type: "array";
  items: Term[];
  loc: Loc;
}

/** An object literal. */
export interface ObjectTerm {
  type: "object";
  entries: [Term, Term][];
  loc: Loc;
}

/** A set literal; `set()` is the empty set. */
export interface SetTerm {
  type: "set";
  items: Term[];
  loc: Loc;
}

/** `[term | body]` */
export interface ArrayCompr {
  type: "arraycompr";
  term: Term;
  body: Body;
  loc: Loc;
}

/** `{term | body}` */
export interface SetCompr {
  type: "setcompr";
  term: Term;
  body: Body;
  loc: Loc;
}

/** `{key: value | body}` */
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

/** `with target as value` */
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
  /** Added by the compiler (not written by the user): a query's results leave it out. */
  generated?: boolean;
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

/** A query or rule body: literals that must all hold. */
export type Body = Expr[];

/** single: one value per key (complete rules, partial objects); multi: `contains`; func: a function. */
export type RuleKind = "single" | "multi" | "func";

/** One rule definition (with its else chain). */
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

/** `import data.x.y as z` */
export interface Import {
  path: Term;
  alias?: string;
  loc: Loc;
}

/** A METADATA annotation. */
export interface Annotation {
  scope: string;
  /** The annotation's fields as written (title, description, authors, ...). */
  fields: Record<string, unknown>;
  loc: Loc;
}

/** One parsed policy file. */
export interface Module {
  file: string;
  /** Package path without the `data` prefix, e.g. ["a", "b"]. */
  pkg: string[];
  pkgLoc: Loc;
  imports: Import[];
  rules: Rule[];
  v0: boolean;
  /**
   * A v0 module held to Rego v1's syntax too (OPA's RegoV0CompatV1): it imports rego.v1,
   * or was parsed for `rego check --v0-v1`.
   */
  v0v1?: boolean;
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
