import type { TemplateBudget } from "./budget.js";
import { syntaxError } from "./errors.js";

/**
 * The lexer of Go's text/template: text between actions, and the tokens of each `{{ }}`
 * action, each with its line (1-based) for error messages. `{{- ` trims white space before
 * the action and ` -}}` after it; comments vanish. One pass with `indexOf`
 * over the text (linear time), one budget step per token.
 */

export type ItemType =
  | "text"
  | "open"
  | "close"
  | "space"
  | "identifier"
  | "keyword"
  | "field"
  | "variable"
  | "dot"
  | "string"
  | "char"
  | "number"
  | "bool"
  | "nil"
  | "pipe"
  | "lparen"
  | "rparen"
  | "declare"
  | "assign"
  | "comma";

export interface Item {
  type: ItemType;
  /** The token's text (for strings: the decoded value). */
  val: string;
  line: number;
  /** Where the token starts in the source, and its source text (Go's node text in errors). */
  pos: number;
  raw: string;
}

const KEYWORDS = new Set([
  "if",
  "else",
  "end",
  "range",
  "with",
  "define",
  "template",
  "block",
  "break",
  "continue",
]);

/** Items that are not an action's tokens: they carry no source text. */
const NOT_TOKENS: ReadonlySet<ItemType> = new Set(["text", "open", "close", "space"]);

/** Go's trim markers and separators: ASCII space, tab, CR and LF only. */
function isSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\r" || c === "\n";
}

function isAlnum(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{Nd}_]/u.test(c);
}

function countLines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf("\n", from); i !== -1 && i < to; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/** Splits a template into items. */
export function lex(src: string, budget: TemplateBudget): Item[] {
  return new Lexer(src, budget).run();
}

class Lexer {
  private pos = 0;
  /** Where the token being lexed starts. */
  private start = 0;
  private line = 1;
  private readonly items: Item[] = [];

  constructor(
    private readonly src: string,
    private readonly budget: TemplateBudget,
  ) {}

  private emit(type: ItemType, val: string, line = this.line): void {
    this.budget.step();
    const token = !NOT_TOKENS.has(type);
    const pos = token ? this.start : this.pos;
    this.items.push({ type, val, line, pos, raw: token ? this.src.slice(pos, this.pos) : "" });
  }

  /** Moves to `to`, counting the newlines passed. */
  private advance(to: number): void {
    this.line += countLines(this.src, this.pos, to);
    this.pos = to;
  }

  run(): Item[] {
    let trimNext = false;
    for (;;) {
      const open = this.src.indexOf("{{", this.pos);
      const end = open === -1 ? this.src.length : open;
      const trimBefore = open !== -1 && this.src[open + 2] === "-" && isSpace(this.src[open + 3]);
      let from = this.pos;
      let to = end;
      if (trimNext) while (from < to && isSpace(this.src[from])) from++;
      if (trimBefore) while (to > from && isSpace(this.src[to - 1])) to--;
      if (to > from)
        this.emit(
          "text",
          this.src.slice(from, to),
          this.line + countLines(this.src, this.pos, from),
        );
      this.advance(end);
      if (open === -1) return this.items;
      trimNext = this.action(trimBefore);
    }
  }

  /** Lexes one action starting at `{{`; returns whether it ends with a trim marker. */
  private action(trimBefore: boolean): boolean {
    const startLine = this.line;
    this.pos += trimBefore ? 4 : 2;
    if (trimBefore) this.line += countLines(this.src, this.pos - 2, this.pos);
    if (this.src.startsWith("/*", this.pos)) return this.comment(startLine);
    this.emit("open", "{{", startLine);
    for (;;) {
      if (this.pos >= this.src.length) throw syntaxError(startLine, "unclosed action");
      const c = this.src[this.pos] as string;
      if (this.src.startsWith("}}", this.pos)) {
        this.pos += 2;
        this.emit("close", "}}");
        return false;
      }
      if (isSpace(c)) {
        if (this.spaceBeforeTrimmedClose()) return true;
        continue;
      }
      this.token(c, startLine);
    }
  }

  /** White space; when it is ` -}}`, consumes the closing delimiter and returns true. */
  private spaceBeforeTrimmedClose(): boolean {
    let i = this.pos;
    while (isSpace(this.src[i])) i++;
    const closesTrimmed = this.src[i] === "-" && this.src.startsWith("}}", i + 1);
    this.advance(closesTrimmed ? i + 3 : i);
    if (closesTrimmed) this.emit("close", "}}");
    else this.emit("space", " ");
    return closesTrimmed;
  }

  private comment(startLine: number): boolean {
    const end = this.src.indexOf("*/", this.pos + 2);
    if (end === -1) throw syntaxError(startLine, "unclosed comment");
    this.advance(end + 2);
    if (this.src.startsWith("}}", this.pos)) {
      this.pos += 2;
      return false;
    }
    if (
      this.src.startsWith(" -}}", this.pos) ||
      (isSpace(this.src[this.pos]) && this.src.startsWith("-}}", this.pos + 1))
    ) {
      this.advance(this.pos + 4);
      return true;
    }
    throw syntaxError(startLine, "comment ends before closing delimiter");
  }

  private token(c: string, startLine: number): void {
    const s = this.src;
    const p = this.pos;
    this.start = p;
    const single: Record<string, ItemType> = {
      "|": "pipe",
      "(": "lparen",
      ")": "rparen",
      ",": "comma",
      "=": "assign",
    };
    if (c === ":" && s[p + 1] === "=") {
      this.pos += 2;
      this.emit("declare", ":=");
    } else if (single[c]) {
      this.pos++;
      this.emit(single[c] as ItemType, c);
    } else if (c === '"') this.quoted(startLine);
    else if (c === "`") this.raw(startLine);
    else if (c === "'") this.char(startLine);
    else if (c === "$") this.word("variable", p + 1, "$");
    else if (c === "." && /[0-9]/.test(s[p + 1] ?? "")) this.number(startLine);
    else if (c === "." && isAlnum(s[p + 1])) this.word("field", p + 1, ".");
    else if (c === ".") {
      this.pos++;
      this.emit("dot", ".");
    } else if (c === "+" || c === "-" || /[0-9]/.test(c)) this.number(startLine);
    else if (isAlnum(c)) this.identifier();
    else throw syntaxError(startLine, `unexpected "${c}" in command`);
  }

  /** `$name` or `.Name`: the sigil and the alphanumeric run after it. */
  private word(type: "variable" | "field", from: number, sigil: string): void {
    let i = from;
    while (isAlnum(this.src[i])) i++;
    this.pos = i;
    this.emit(type, sigil + this.src.slice(from, i));
  }

  private identifier(): void {
    let i = this.pos;
    while (isAlnum(this.src[i])) i++;
    const word = this.src.slice(this.pos, i);
    this.pos = i;
    if (KEYWORDS.has(word)) this.emit("keyword", word);
    else if (word === "true" || word === "false") this.emit("bool", word);
    else if (word === "nil") this.emit("nil", word);
    else this.emit("identifier", word);
  }

  private number(startLine: number): void {
    const m =
      /^[+-]?(?:0[xX][0-9a-fA-F_]*(?:\.[0-9a-fA-F_]*)?(?:[pP][+-]?[0-9_]+)?|0[bB][01_]+|0[oO][0-7_]+|[0-9_]*\.?[0-9_]*(?:[eE][+-]?[0-9_]+)?)i?/.exec(
        this.src.slice(this.pos, this.pos + 100),
      );
    const text = m?.[0] ?? "";
    if (text === "" || text === "+" || text === "-" || isAlnum(this.src[this.pos + text.length]))
      throw syntaxError(
        startLine,
        `bad number syntax: "${this.src.slice(this.pos, this.pos + text.length + 1)}"`,
      );
    this.pos += text.length;
    this.emit("number", text);
  }

  private quoted(startLine: number): void {
    let i = this.pos + 1;
    for (;;) {
      const c = this.src[i];
      if (c === undefined || c === "\n") throw syntaxError(startLine, "unterminated quoted string");
      if (c === "\\") i += 2;
      else if (c === '"') break;
      else i++;
    }
    const text = this.src.slice(this.pos, i + 1);
    this.pos = i + 1;
    this.emit("string", unquote(text, startLine));
  }

  private raw(startLine: number): void {
    const end = this.src.indexOf("`", this.pos + 1);
    if (end === -1) throw syntaxError(startLine, "unterminated raw quoted string");
    const text = this.src.slice(this.pos + 1, end);
    this.advance(end + 1);
    this.emit("string", text.replaceAll("\r", ""), startLine);
  }

  private char(startLine: number): void {
    let i = this.pos + 1;
    while (i < this.src.length && this.src[i] !== "'" && this.src[i] !== "\n")
      i += this.src[i] === "\\" ? 2 : 1;
    if (this.src[i] !== "'") throw syntaxError(startLine, "unterminated character constant");
    const body = this.src.slice(this.pos + 1, i);
    this.pos = i + 1;
    const value = unquote(`"${body.replaceAll('"', '\\"')}"`, startLine);
    const cp = value.codePointAt(0);
    if (cp === undefined || String.fromCodePoint(cp) !== value)
      throw syntaxError(startLine, `malformed character constant: '${body}'`);
    this.emit("char", String(cp));
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  '"': '"',
  "'": "'",
};

/** Decodes a Go interpreted string literal (with its quotes). */
function unquote(text: string, line: number): string {
  const body = text.slice(1, -1);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = body[++i] ?? "";
    if (SIMPLE_ESCAPES[e] !== undefined) out += SIMPLE_ESCAPES[e];
    else if (e === "x" || e === "u" || e === "U") {
      const n = e === "x" ? 2 : e === "u" ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n)
        throw syntaxError(line, `invalid syntax: ${text}`);
      out +=
        e === "x"
          ? String.fromCharCode(Number.parseInt(hex, 16))
          : String.fromCodePoint(Number.parseInt(hex, 16));
      i += n;
    } else if (/[0-7]/.test(e)) {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) throw syntaxError(line, `invalid syntax: ${text}`);
      out += String.fromCharCode(Number.parseInt(oct, 8));
      i += 2;
    } else throw syntaxError(line, `invalid syntax: ${text}`);
  }
  return out;
}
