/**
 * Rego lexer. Six token kinds (symbol, string, raw string, number, ident, eof) plus template
 * strings; keywords are ordinary identifiers that the parser recognises by position.
 */
import { SIMPLE_ESCAPES } from "@quintet/gostd/json";
import { RegoError } from "../errors.js";
import { maxNesting, nestingMessage } from "./nesting.js";

/** The kinds of token; keywords are idents that the parser recognises. */
export type TokenKind = "symbol" | "string" | "rawstring" | "number" | "ident" | "template" | "eof";

/** A literal piece or an embedded expression (source offsets, its tokens) of a template. */
export type TemplatePart = { text: string } | { start: number; end: number; tokens: Token[] };

/** One token with its source span and position. */
export interface Token {
  kind: TokenKind;
  /** Source text for symbols, idents and numbers; decoded value for strings. */
  text: string;
  start: number;
  end: number;
  row: number;
  col: number;
  /** True when a newline separates this token from the previous one. */
  newline: boolean;
  parts?: TemplatePart[];
}

/** A `#` comment, kept for METADATA annotations. */
export interface Comment {
  text: string;
  row: number;
  col: number;
  /** Source offset of the `#`. */
  start: number;
}

const symbols3 = new Set<string>();
const symbols2 = new Set([":=", "==", "!=", "<=", ">="]);
const symbols1 = new Set([..."{}[]().,;:=<>+-*/%|&!"]);

/** Line starts of a source, to turn offsets into row/col. */
export class SourceMap {
  private readonly lineStarts: number[] = [0];
  constructor(
    readonly file: string,
    readonly source: string,
  ) {
    for (let i = 0; i < source.length; i++) if (source[i] === "\n") this.lineStarts.push(i + 1);
  }

  position(offset: number): { row: number; col: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo + 1, col: offset - (this.lineStarts[lo] as number) + 1 };
  }

  error(offset: number, message: string): RegoError {
    const { row, col } = this.position(offset);
    return new RegoError("rego_parse_error", message, { file: this.file, row, col });
  }
}

/** Tokenises `source[start, end)`; comments are appended to `comments`. */
export function tokenize(
  map: SourceMap,
  start = 0,
  end = map.source.length,
  comments: Comment[] = [],
): Token[] {
  return lex(map, start, end, comments, 0).tokens;
}

/**
 * The tokens from `start`. Inside a template string (`templates` > 0, how many are open) it
 * stops at the `}` that closes the embedded expression, so that each character is read once
 * however deep templates nest.
 */
function lex(
  map: SourceMap,
  start: number,
  end: number,
  comments: Comment[],
  templates: number,
): { tokens: Token[]; end: number } {
  const src = map.source;
  let braces = 0;
  const tokens: Token[] = [];
  let i = start;
  let newline = false;
  const push = (kind: TokenKind, text: string, s: number, parts?: TemplatePart[]) => {
    const { row, col } = map.position(s);
    tokens.push({ kind, text, start: s, end: i, row, col, newline, parts });
    newline = false;
  };
  while (i < end) {
    const c = src[i] as string;
    if (c === "\n") {
      newline = true;
      i++;
    } else if (c === " " || c === "\t" || c === "\r") {
      i++;
    } else if (c === "#") {
      const s = i;
      while (i < end && src[i] !== "\n") i++;
      const { row, col } = map.position(s);
      comments.push({ text: src.slice(s + 1, i), row, col, start: s });
    } else if (c === '"') {
      const s = i;
      const text = readString(map, i, end);
      i = text.end;
      push("string", text.value, s);
    } else if (c === "`") {
      const s = i;
      const close = src.indexOf("`", i + 1);
      if (close < 0 || close >= end) throw map.error(s, "unterminated raw string");
      i = close + 1;
      push("rawstring", src.slice(s + 1, close), s);
    } else if (c === "$" && (src[i + 1] === '"' || src[i + 1] === "`")) {
      const s = i;
      const t = readTemplate(map, i + 1, end, templates + 1);
      i = t.end;
      push("template", "", s, t.parts);
    } else if (isDigit(c) || (c === "." && isDigit(src[i + 1] ?? ""))) {
      const s = i;
      i = readNumber(src, i, end);
      push("number", src.slice(s, i), s);
    } else if (isIdentStart(c)) {
      const s = i;
      while (i < end && isIdentPart(src[i] as string)) i++;
      push("ident", src.slice(s, i), s);
    } else if (templates > 0 && (c === "{" || c === "}")) {
      if (c === "}" && braces === 0) return { tokens: withEof(tokens, map, i), end: i };
      braces += c === "{" ? 1 : -1;
      i++;
      push("symbol", c, i - 1);
    } else {
      const s = i;
      const two = src.slice(i, i + 2);
      const three = src.slice(i, i + 3);
      if (symbols3.has(three)) i += 3;
      else if (symbols2.has(two)) i += 2;
      else if (symbols1.has(c)) i += 1;
      else throw map.error(s, `illegal token ${JSON.stringify(c)}`);
      push("symbol", src.slice(s, i), s);
    }
  }
  if (templates > 0) throw map.error(i, "unterminated template expression");
  return { tokens: withEof(tokens, map, i), end: i };
}

function withEof(tokens: Token[], map: SourceMap, i: number): Token[] {
  const { row, col } = map.position(Math.min(i, map.source.length));
  tokens.push({ kind: "eof", text: "", start: i, end: i, row, col, newline: true });
  return tokens;
}

function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

function isIdentStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || isDigit(c);
}

function readNumber(src: string, i: number, end: number): number {
  while (i < end && isDigit(src[i] as string)) i++;
  if (src[i] === "." && isDigit(src[i + 1] ?? "")) {
    i++;
    while (i < end && isDigit(src[i] as string)) i++;
  }
  if (src[i] === "e" || src[i] === "E") {
    let j = i + 1;
    if (src[j] === "+" || src[j] === "-") j++;
    if (isDigit(src[j] ?? "")) {
      i = j;
      while (i < end && isDigit(src[i] as string)) i++;
    }
  }
  return i;
}

/** The one-character escapes of a string literal: those of JSON (see @quintet/gostd/json). */
export { SIMPLE_ESCAPES };

/** Reads one escape sequence at `src[i] === "\\"`; returns the text and the next offset. */
function readEscape(map: SourceMap, i: number): { text: string; next: number } {
  const src = map.source;
  const e = src[i + 1] ?? "";
  if (e in SIMPLE_ESCAPES) return { text: SIMPLE_ESCAPES[e] as string, next: i + 2 };
  if (e === "u") {
    const hex = src.slice(i + 2, i + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw map.error(i, "invalid escape sequence in string");
    return { text: String.fromCharCode(Number.parseInt(hex, 16)), next: i + 6 };
  }
  throw map.error(i, "invalid escape sequence in string");
}

function readString(map: SourceMap, s: number, end: number): { value: string; end: number } {
  const src = map.source;
  let i = s + 1;
  let out = "";
  while (true) {
    if (i >= end || src[i] === "\n") throw map.error(s, "non-terminated string");
    const c = src[i] as string;
    if (c === '"') return { value: out, end: i + 1 };
    if (c === "\\") {
      const e = readEscape(map, i);
      out += e.text;
      i = e.next;
    } else {
      out += c;
      i++;
    }
  }
}

/** Reads a template string whose quote is at `q`, the `depth`th open one. */
function readTemplate(
  map: SourceMap,
  q: number,
  end: number,
  depth: number,
): { parts: TemplatePart[]; end: number } {
  // Templates nest by recursion here, before the parser can count: the same limit applies.
  if (depth > maxNesting) throw map.error(q - 1, nestingMessage());
  const src = map.source;
  const raw = src[q] === "`";
  const quote = src[q] as string;
  const parts: TemplatePart[] = [];
  let lit = "";
  let i = q + 1;
  while (true) {
    if (i >= end || (!raw && src[i] === "\n")) throw map.error(q - 1, "non-terminated string");
    const c = src[i] as string;
    if (c === quote) break;
    if (c === "\\" && src[i + 1] === "{") {
      lit += "{";
      i += 2;
    } else if (c === "\\" && !raw) {
      const e = readEscape(map, i);
      lit += e.text;
      i = e.next;
    } else if (c === "{") {
      if (lit) parts.push({ text: lit });
      lit = "";
      // Comments inside an embedded expression are not the module's (annotations).
      const inner = lex(map, i + 1, end, [], depth);
      parts.push({ start: i + 1, end: inner.end, tokens: inner.tokens });
      i = inner.end + 1;
    } else {
      lit += c;
      i++;
    }
  }
  if (lit) parts.push({ text: lit });
  return { parts, end: i + 1 };
}
