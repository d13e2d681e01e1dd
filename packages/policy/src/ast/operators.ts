/**
 * The builtins written as infix operators, with the precedence the parser gives them
 * (loosest first), and how to recognise a unary minus (`-x` parses as `minus(0, x)`).
 */
import type { Term } from "./nodes.js";

/** Precedence levels, loosest first, as the parser climbs them. */
export const Level = { Unify: 0, In: 1, Relation: 2, Or: 3, And: 4, Arith: 5, Factor: 6 } as const;

interface Infix {
  text: string;
  level: number;
}

const infixOps: Record<string, Infix> = {
  eq: { text: "=", level: Level.Unify },
  assign: { text: ":=", level: Level.Unify },
  "internal.member_2": { text: "in", level: Level.In },
  equal: { text: "==", level: Level.Relation },
  neq: { text: "!=", level: Level.Relation },
  lt: { text: "<", level: Level.Relation },
  lte: { text: "<=", level: Level.Relation },
  gt: { text: ">", level: Level.Relation },
  gte: { text: ">=", level: Level.Relation },
  or: { text: "|", level: Level.Or },
  and: { text: "&", level: Level.And },
  plus: { text: "+", level: Level.Arith },
  minus: { text: "-", level: Level.Arith },
  mul: { text: "*", level: Level.Factor },
  div: { text: "/", level: Level.Factor },
  rem: { text: "%", level: Level.Factor },
};

/** The infix form of a two-operand builtin call written by its plain name, if it has one. */
export function infixOf(t: Term): Infix | undefined {
  if (t.type !== "call" || t.args.length !== 2 || t.op.type !== "var") return undefined;
  return Object.hasOwn(infixOps, t.name) ? infixOps[t.name] : undefined;
}

/** `k, v in c`: the three-operand membership. */
export function isMember3(t: Term): boolean {
  return t.type === "call" && t.name === "internal.member_3" && t.args.length === 3;
}

/** The precedence of a term written infix (undefined for anything else). */
export function levelOf(t: Term): number | undefined {
  if (isMember3(t)) return Level.In;
  return infixOf(t)?.level;
}

/** True for a set union, which reads as a comprehension bar inside braces and brackets. */
export function isUnion(t: Term): boolean {
  return t.type === "call" && t.name === "or" && t.args.length === 2;
}

/** `-x`: the parser's `minus(0, x)` whose zero was written as the `-` sign itself. */
export function unaryOperand(t: Term, source: string): Term | undefined {
  if (t.type !== "call" || t.name !== "minus" || t.args.length !== 2) return undefined;
  const [zero, operand] = t.args as [Term, Term];
  if (zero.type !== "scalar" || zero.value !== 0) return undefined;
  if (zero.loc.end - zero.loc.start !== 1 || source[zero.loc.start] !== "-") return undefined;
  return operand;
}

/**
 * Whether an operand of a top-level infix expression needs parentheses to parse back the
 * same: a looser operator inside, or an equally loose one on the right (all levels are
 * left-associative).
 */
export function needsParens(t: Term, level: number, right: boolean): boolean {
  const inner = levelOf(t);
  if (inner === undefined) return false;
  if (isMember3(t)) return true;
  if (level === Level.Unify) return inner === Level.Unify;
  return inner < level || (right && inner === level) || inner === Level.In;
}
