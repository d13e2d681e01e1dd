/**
 * The parser's position in its token stream, and the small moves every production makes:
 * look, consume, expect, open and close a level of nesting, and try a production that may
 * have to be undone (OPA's parser tries some readings first and falls back to others).
 */
import type { Loc } from "../ast/nodes.js";
import { RegoError } from "../errors.js";
import { type Comment, type SourceMap, type Token, tokenize } from "./lexer.js";
import { maxNesting, nestingMessage } from "./nesting.js";

/** A parser's saved position, to go back to. */
interface Mark {
  pos: number;
  depth: number;
  nesting: number;
}

export abstract class TokenCursor {
  protected pos = 0;
  /** Brackets open around the current position: inside them a newline ends nothing. */
  protected depth = 0;
  /** Nested constructs open around the current position, against the nesting limit. */
  protected nesting = 0;
  /** Future keywords in effect (all of them in Rego v1). */
  readonly keywords: Set<string>;
  protected readonly tokens: Token[];

  constructor(
    readonly map: SourceMap,
    keywords: Set<string>,
    start = 0,
    end = map.source.length,
    readonly comments: Comment[] = [],
    tokens?: Token[],
  ) {
    this.keywords = keywords;
    this.tokens = tokens ?? tokenize(map, start, end, comments);
  }

  // ---- token helpers ------------------------------------------------------------------

  protected get tok(): Token {
    return this.tokens[this.pos] as Token;
  }

  protected peek(n = 1): Token {
    return this.tokens[Math.min(this.pos + n, this.tokens.length - 1)] as Token;
  }

  protected next(): Token {
    const t = this.tok;
    if (t.kind !== "eof") this.pos++;
    return t;
  }

  protected isSym(text: string, t = this.tok): boolean {
    return t.kind === "symbol" && t.text === text;
  }

  protected isKw(word: string): boolean {
    const t = this.tok;
    if (t.kind !== "ident" || t.text !== word || !this.isKeywordOn(word)) return false;
    const after = this.peek();
    return !(after.kind === "symbol" && after.text === "." && after.start === t.end);
  }

  protected isKeywordOn(word: string): boolean {
    return !["in", "if", "contains", "every"].includes(word) || this.keywords.has(word);
  }

  protected accept(text: string): boolean {
    if (this.isSym(text)) {
      this.pos++;
      return true;
    }
    return false;
  }

  protected expect(text: string): Token {
    if (!this.isSym(text)) throw this.unexpected(`expected ${text}`);
    return this.next();
  }

  /** Opens one level of nesting at `offset`; past the limit, a parse error. */
  protected enter(offset: number): void {
    this.nesting++;
    if (this.nesting > maxNesting) throw this.map.error(offset, nestingMessage());
  }

  protected leave(): void {
    this.nesting--;
  }

  protected unexpected(hint?: string): RegoError {
    const t = this.tok;
    const what = t.kind === "eof" ? "EOF" : `${t.kind === "ident" ? "ident" : "token"} ${t.text}`;
    const msg = `unexpected ${t.kind === "eof" ? "eof token" : what}${hint ? `: ${hint}` : ""}`;
    return this.map.error(t.start, msg);
  }

  protected loc(start: number, end = this.prevEnd()): Loc {
    const { row, col } = this.map.position(start);
    return { file: this.map.file, row, col, start, end };
  }

  protected prevEnd(): number {
    return this.pos > 0 ? (this.tokens[this.pos - 1] as Token).end : 0;
  }

  /** True when the current token cannot continue the previous line's expression. */
  protected atLineBreak(): boolean {
    return this.tok.newline && this.depth === 0;
  }

  protected mark(): Mark {
    return { pos: this.pos, depth: this.depth, nesting: this.nesting };
  }

  protected reset(m: Mark): void {
    this.pos = m.pos;
    this.depth = m.depth;
    this.nesting = m.nesting;
  }

  /**
   * Runs `f`; when it fails with a parse error, goes back to where it started and answers
   * undefined. Anything else (a stack overflow) still propagates.
   */
  protected attempt<T>(f: () => T): T | undefined {
    const m = this.mark();
    try {
      return f();
    } catch (e) {
      if (!isParseError(e)) throw e;
      this.reset(m);
      return undefined;
    }
  }
}

/** True for the errors this parser raises (a RegoError), not a JavaScript failure. */
export function isParseError(e: unknown): boolean {
  // Too deep stays too deep whichever way it is read: never worth a second try.
  return e instanceof RegoError && e.code === "rego_parse_error" && e.message !== nestingMessage();
}
