/**
 * The parentheses the source wrapped around a term. The parser drops them from the tree, but
 * OPA's parser keeps them in the term's text, and its printer reads that text in a few places:
 * a `|` union in a call argument and a call as a comprehension's term keep the parentheses they
 * were written with, and a collection element's text starts at its opening parenthesis.
 */
import type { Loc } from "../ast/nodes.js";

/** A source span: `start` inclusive, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The outermost parenthesised span around `loc`, or undefined when the source wrote no
 * parentheses around it. Parentheses at or before `floor` (a call's own opening parenthesis)
 * are not the term's.
 */
export function parenSpan(source: string, loc: Loc, floor = -1): Span | undefined {
  let span: Span | undefined;
  let from = loc.start;
  let to = loc.end;
  for (;;) {
    const open = skipBlanksBack(source, from - 1);
    if (open <= floor || source[open] !== "(") return span;
    const close = matchingParen(source, open);
    if (close === undefined || skipBlanks(source, to) !== close) return span;
    span = { start: open, end: close + 1 };
    from = open;
    to = close + 1;
  }
}

/** The span of `loc` with the parentheses the source wrote around it. */
export function spanWithParens(source: string, loc: Loc, floor = -1): Span {
  return parenSpan(source, loc, floor) ?? { start: loc.start, end: loc.end };
}

function skipBlanksBack(source: string, i: number): number {
  while (i >= 0 && /\s/.test(source[i] as string)) i--;
  return i;
}

function skipBlanks(source: string, i: number): number {
  while (i < source.length && /\s/.test(source[i] as string)) i++;
  return i;
}

/** The index of the `)` closing the `(` at `open`, skipping strings and comments. */
function matchingParen(source: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "`") i = stringEnd(source, i);
    else if (c === "#") i = lineEnd(source, i);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `i`. */
function stringEnd(source: string, i: number): number {
  const quote = source[i];
  for (let j = i + 1; j < source.length; j++) {
    if (quote === '"' && source[j] === "\\") j++;
    else if (source[j] === quote) return j;
  }
  return source.length;
}

function lineEnd(source: string, i: number): number {
  const nl = source.indexOf("\n", i);
  return nl < 0 ? source.length : nl;
}
