import { LlmsrvError } from "../errors.js";
import { type Action, excerpt, parseAction } from "./go-template-expr.js";
import type { TemplateBudget } from "./template-budget.js";

/** Text between actions, or one parsed `{{ }}` action. */
export type Token = { kind: "text"; text: string } | { kind: "action"; action: Action };

/** Go's trim markers remove ASCII white space only. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function trimLeadingSpace(s: string): string {
  let i = 0;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return s.slice(i);
}

function trimTrailingSpace(s: string): string {
  let j = s.length;
  while (j > 0 && isSpace(s.charCodeAt(j - 1))) j--;
  return s.slice(0, j);
}

/**
 * Splits a template into text and actions in one pass, with `indexOf` rather than a
 * backtracking regular expression, so the time is linear in the template's length.
 * `{{- ` trims white space before the action and ` -}}` after it, as in Go. Every piece of
 * text and every token of an action is a step of `budget`: a huge template is refused too.
 */
export function lex(src: string, budget: TemplateBudget): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  let trimNext = false;
  for (;;) {
    const open = src.indexOf("{{", pos);
    let text = src.slice(pos, open === -1 ? src.length : open);
    if (trimNext) text = trimLeadingSpace(text);
    const trimBefore = open !== -1 && src[open + 2] === "-" && isSpace(src.charCodeAt(open + 3));
    if (trimBefore) text = trimTrailingSpace(text);
    if (text) tokens.push({ kind: "text", text });
    if (open === -1) return tokens;
    budget.step();
    const start = open + (trimBefore ? 3 : 2);
    const close = src.indexOf("}}", start);
    if (close === -1)
      throw new LlmsrvError("internal", `template: unclosed action "${excerpt(src.slice(open))}"`);
    trimNext = close - 2 >= start && src[close - 1] === "-" && isSpace(src.charCodeAt(close - 2));
    const body = src.slice(start, trimNext ? close - 1 : close).trim();
    if (!body.startsWith("/*")) tokens.push({ kind: "action", action: parseAction(body, budget) });
    pos = close + 2;
  }
}
