/**
 * How the REPL reads statements: lines are gathered until every `{`, `[` and `(` is closed
 * (brackets inside strings and comments do not count), as `opa run` waits for the rest of a
 * multi-line rule; and what kind of statement the gathered text is.
 */
import type { Expr } from "../../ast/nodes.js";
import { parseQuery } from "../../syntax/module-parser.js";

/** Open brackets minus closed ones, outside strings, raw strings and comments. */
export function bracketBalance(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "#") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== "\n"; i++) {
        if (text[i] === "\\") i++;
      }
    } else if (c === "`") {
      for (i++; i < text.length && text[i] !== "`"; i++);
    } else if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") depth--;
  }
  return depth;
}

/** What a complete statement asks for. */
export type Statement =
  | { kind: "empty" }
  | { kind: "command"; name: string; arg: string }
  | { kind: "package"; path: string }
  | { kind: "import"; text: string }
  | { kind: "input"; term: string }
  | { kind: "query"; text: string }
  | { kind: "rules"; text: string; queryError?: unknown };

const COMMANDS = new Set(["exit", "quit", "help", "show", "unset"]);

/** `x := ...` (and `f(x) := ...`): a rule definition in the REPL, as in `opa run`. */
function isAssignment(body: Expr[]): boolean {
  const [e] = body;
  return (
    body.length === 1 &&
    e?.type === "term" &&
    e.term.type === "call" &&
    e.term.name === "assign" &&
    !e.negated
  );
}

/** Classifies a complete statement. */
export function classify(text: string): Statement {
  const t = text.trim();
  if (t === "") return { kind: "empty" };
  const [word = "", ...rest] = t.split(/\s+/);
  if (COMMANDS.has(word) && (word === "unset" ? rest.length > 0 : rest.length === 0))
    return { kind: "command", name: word, arg: rest.join(" ") };
  if (word === "package" && rest.length === 1) return { kind: "package", path: rest[0] as string };
  if (word === "import") return { kind: "import", text: t };
  const input = /^input\s*:=\s*([\s\S]+)$/.exec(t);
  if (input) return { kind: "input", term: input[1] as string };
  try {
    return isAssignment(parseQuery(t)) ? { kind: "rules", text: t } : { kind: "query", text: t };
  } catch (queryError) {
    // Not a query: a rule (`p if ...`, `s contains ...`, `default ...`), or a mistake that
    // is reported as the query's error when the text does not parse as rules either.
    return { kind: "rules", text: t, queryError };
  }
}
