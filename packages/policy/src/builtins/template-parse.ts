/**
 * Parser for the Go text/template subset strings.render_template supports: text, `{{pipeline}}`
 * actions with `{{-`/`-}}` trimming, comments, variables (`$x := ...`, `$x = ...`), `if`/`else if`/
 * `else`, `range` (with `$i, $v :=`, `break`, `continue`), `with`, and pipelines of fields,
 * literals and function calls.
 */
import { BuiltinError } from "../errors.js";
import { templateFunctions } from "./template-values.js";

/** An operand of a command. */
export type Term =
  | { kind: "dot"; fields: string[] }
  | { kind: "var"; name: string; fields: string[] }
  | { kind: "literal"; value: string | number | boolean | null }
  | { kind: "func"; name: string }
  | { kind: "group"; pipe: Pipe; fields: string[] };

/** One command of a pipeline: a function with arguments, or a single term. */
export type Command = Term[];

export interface Pipe {
  /** Variables declared by `$x :=` or assigned by `$x =` (one or, in range, two). */
  decl: string[];
  /** True for `=` (assign to existing variables) rather than `:=`. */
  assign: boolean;
  commands: Command[];
  /** Source text of each command, for error messages. */
  texts: string[];
}

/** Where an action starts, as Go names it in execution errors: `template:LINE:COL`. */
export type Where = string;

export type Node =
  | { kind: "text"; text: string }
  | { kind: "break" | "continue"; at: Where }
  | { kind: "output"; pipe: Pipe; at: Where }
  | { kind: "if" | "with"; pipe: Pipe; body: Node[]; otherwise: Node[]; at: Where }
  | { kind: "range"; pipe: Pipe; body: Node[]; otherwise: Node[]; at: Where };

/** Names callable in a pipeline: Go rejects an unknown function at parse time. */
const TEMPLATE_FUNCTIONS = new Set(Object.keys(templateFunctions));

/** A syntax problem inside one action, before its line is known. */
class SyntaxProblem extends Error {}

/** Go's parse error text: `template: <name>:<line>: <message>`. */
function templateError(message: string, line: number): BuiltinError {
  return new BuiltinError(`template: template:${line}: ${message}`);
}

type Part = { text: string } | { action: string; line: number; col: number };

function lineAt(src: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (src.charCodeAt(i) === 10) line++;
  return line;
}

/** Splits the source into text and action bodies, applying trim markers. */
function splitActions(src: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < src.length) {
    const open = src.indexOf("{{", i);
    if (open < 0) {
      parts.push({ text: src.slice(i) });
      break;
    }
    let text = src.slice(i, open);
    let start = open + 2;
    if (/^- /.test(src.slice(start, start + 2)) || /^-[\t\n\r]/.test(src.slice(start, start + 2))) {
      text = text.replace(/\s+$/, "");
      start += 1;
    }
    parts.push({ text });
    const close = findClose(src, start);
    let end = close;
    let next = close + 2;
    if (/[ \t\n\r]-$/.test(src.slice(start, close))) {
      end = close - 1;
      const rest = src.slice(next);
      next += rest.length - rest.replace(/^\s+/, "").length;
    }
    const content =
      start + (src.slice(start, end).length - src.slice(start, end).trimStart().length);
    const col = content - (src.lastIndexOf("\n", content - 1) + 1);
    parts.push({ action: src.slice(start, end).trim(), line: lineAt(src, open), col });
    i = next;
  }
  return parts.filter((p) => !("text" in p) || p.text !== "");
}

/** The index of the `}}` closing an action, skipping quoted strings. */
function findClose(src: string, from: number): number {
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "`") {
      const q = c;
      for (i++; i < src.length && src[i] !== q; i++) if (q === '"' && src[i] === "\\") i++;
    } else if (c === "}" && src[i + 1] === "}") return i;
  }
  throw templateError("unclosed action", lineAt(src, from));
}

const TOKEN =
  /\s*(?:("(?:[^"\\]|\\.)*"|`[^`]*`|'(?:[^'\\]|\\.)+')|(-?[0-9][0-9.eExX_a-fA-F+-]*)|(\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|(\.(?:[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)?)|([A-Za-z_][A-Za-z0-9_]*)|(:=|=|\||\(|\)|,))/y;

/** Splits an action body into tokens. */
function tokenize(action: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < action.length) {
    if (/^\s*$/.test(action.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(action);
    if (!m)
      throw new SyntaxProblem(`unexpected "${action.slice(TOKEN.lastIndex).trim()[0]}" in command`);
    tokens.push(m[0].trim());
  }
  return tokens;
}

/** Parses a token list into a pipeline, starting at `pos.i`. */
function parsePipe(tokens: string[], pos: { i: number }, allowDecl: boolean): Pipe {
  const decl: string[] = [];
  let assign = false;
  if (allowDecl) {
    const j = tokens.findIndex((t, k) => k >= pos.i && (t === ":=" || t === "="));
    if (
      j > pos.i &&
      tokens.slice(pos.i, j).every((t) => t === "," || /^\$[A-Za-z0-9_]*$/.test(t))
    ) {
      decl.push(...tokens.slice(pos.i, j).filter((t) => t !== ","));
      assign = tokens[j] === "=";
      pos.i = j + 1;
    }
  }
  const commands: Command[] = [[]];
  const texts: string[][] = [[]];
  while (pos.i < tokens.length && tokens[pos.i] !== ")") {
    const from = pos.i;
    const t = tokens[pos.i++] as string;
    if (t === "|") {
      commands.push([]);
      texts.push([]);
      continue;
    }
    (commands[commands.length - 1] as Command).push(parseTerm(t, tokens, pos));
    (texts[texts.length - 1] as string[]).push(
      tokens.slice(from, pos.i).join(" ").replace(/\( /g, "(").replace(/ \)/g, ")"),
    );
  }
  if (commands.some((c) => c.length === 0)) throw new SyntaxProblem("missing value for command");
  return { decl, assign, commands, texts: texts.map((t) => t.join(" ")) };
}

function splitFields(t: string): string[] {
  return t
    .split(".")
    .slice(1)
    .filter((f) => f !== "");
}

function parseTerm(t: string, tokens: string[], pos: { i: number }): Term {
  if (t === "(") {
    const pipe = parsePipe(tokens, pos, false);
    if (tokens[pos.i++] !== ")") throw new SyntaxProblem("unclosed left paren");
    const next = tokens[pos.i];
    let fields: string[] = [];
    if (next?.startsWith(".") && next !== ".") {
      pos.i++;
      fields = splitFields(next);
    }
    return { kind: "group", pipe, fields };
  }
  if (t.startsWith('"')) return { kind: "literal", value: JSON.parse(t) as string };
  if (t.startsWith("`")) return { kind: "literal", value: t.slice(1, -1) };
  if (t.startsWith("'")) {
    // A character constant is its code point, as in Go.
    const ch = JSON.parse(`"${t.slice(1, -1).replace(/"/g, '\\"')}"`) as string;
    if (Array.from(ch).length !== 1) throw new SyntaxProblem(`malformed character constant: ${t}`);
    return { kind: "literal", value: ch.codePointAt(0) as number };
  }
  if (t.startsWith("$")) {
    const [name, ...fields] = t.split(".");
    return { kind: "var", name: name as string, fields };
  }
  if (t.startsWith(".")) return { kind: "dot", fields: splitFields(t) };
  if (/^-?[0-9]/.test(t)) {
    const n = Number(t.replaceAll("_", ""));
    if (Number.isNaN(n)) throw new SyntaxProblem(`bad number syntax: "${t}"`);
    return { kind: "literal", value: n };
  }
  if (t === "true" || t === "false") return { kind: "literal", value: t === "true" };
  if (t === "nil") return { kind: "literal", value: null };
  if (/^[A-Za-z_]/.test(t)) {
    if (!TEMPLATE_FUNCTIONS.has(t)) throw new SyntaxProblem(`function "${t}" not defined`);
    return { kind: "func", name: t };
  }
  throw new SyntaxProblem(`unexpected "${t}" in command`);
}

/** Builds the node tree from the flat list of text and actions. */
class TreeBuilder {
  private i = 0;
  /** How many `range` bodies enclose the current position: break/continue need one. */
  private rangeDepth = 0;

  constructor(
    private readonly parts: Part[],
    private readonly lastLine: number,
  ) {}

  /** Nodes up to one of the `stops` keywords (returned with its remaining tokens). */
  list(stops: string[]): { nodes: Node[]; stop?: string; rest: string[] } {
    const nodes: Node[] = [];
    while (this.i < this.parts.length) {
      const part = this.parts[this.i++] as Part;
      if ("text" in part) {
        nodes.push({ kind: "text", text: part.text });
        continue;
      }
      if (part.action.startsWith("/*")) continue;
      try {
        const tokens = tokenize(part.action);
        const keyword = tokens[0] as string;
        if (stops.includes(keyword)) return { nodes, stop: keyword, rest: tokens.slice(1) };
        if (keyword === "break" || keyword === "continue") {
          if (this.rangeDepth === 0) throw new SyntaxProblem(`{{${keyword}}} outside {{range}}`);
          nodes.push({ kind: keyword, at: `template:${part.line}:${part.col}` });
          continue;
        }
        if (["end", "else", "define", "template", "block"].includes(keyword)) {
          throw new SyntaxProblem(`unexpected {{${keyword}}}`);
        }
        // Go places a block's errors at its pipeline, just after the keyword.
        const isBlock = keyword === "if" || keyword === "with" || keyword === "range";
        const offset = isBlock
          ? part.action.length - part.action.slice(keyword.length).trimStart().length
          : 0;
        nodes.push(this.node(keyword, tokens, `template:${part.line}:${part.col + offset}`));
      } catch (e) {
        throw e instanceof SyntaxProblem ? templateError(e.message, part.line) : e;
      }
    }
    if (stops.length > 0) throw templateError("unexpected EOF", this.lastLine);
    return { nodes, rest: [] };
  }

  private node(keyword: string, tokens: string[], at: Where): Node {
    if (keyword === "if" || keyword === "with" || keyword === "range") {
      return this.block(keyword, tokens.slice(1), at);
    }
    return { kind: "output", pipe: parsePipe(tokens, { i: 0 }, true), at };
  }

  private block(keyword: "if" | "with" | "range", tokens: string[], at: Where): Node {
    const pipe = parsePipe(tokens, { i: 0 }, true);
    if (keyword === "range") this.rangeDepth++;
    const body = this.list(["else", "end"]);
    if (keyword === "range") this.rangeDepth--;
    let otherwise: Node[] = [];
    if (body.stop === "else") {
      if (body.rest[0] === "if" && keyword === "if") {
        otherwise = [this.block("if", body.rest.slice(1), at)];
      } else {
        otherwise = this.list(["end"]).nodes;
      }
    }
    if (keyword === "range") return { kind: "range", pipe, body: body.nodes, otherwise, at };
    return { kind: keyword, pipe, body: body.nodes, otherwise, at };
  }
}

/** Parses a template into nodes; throws a BuiltinError on malformed input. */
export function parseTemplate(src: string): Node[] {
  return new TreeBuilder(splitActions(src), lineAt(src, src.length)).list([]).nodes;
}
