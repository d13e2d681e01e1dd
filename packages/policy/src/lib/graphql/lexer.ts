/**
 * GraphQL tokenizer with the token names, positions and messages that OPA's parser (gqlparser)
 * reports: columns count code points, string tokens start after their opening quotes, and a
 * lexing failure yields an `<Invalid>` token plus an error the parser may report later.
 */
/** GraphQL strings have JSON's one-character escapes (the spec's EscapedCharacter). */
import { SIMPLE_ESCAPES } from "@quintet/gostd/json";

/** Token kinds; the string is how messages name the kind. */
export type TokenKind =
  | "<Invalid>"
  | "<EOF>"
  | "!"
  | "$"
  | "&"
  | "("
  | ")"
  | "..."
  | ":"
  | "="
  | "@"
  | "["
  | "]"
  | "{"
  | "}"
  | "|"
  | "Name"
  | "Int"
  | "Float"
  | "String"
  | "BlockString";

/** A 1-based line and column in code points. */
export interface Position {
  line: number;
  column: number;
}

export interface Token {
  kind: TokenKind;
  /** Text of names, numbers and decoded strings; empty for punctuation. */
  value: string;
  pos: Position;
}

/** A parse or validation failure with gqlparser's message and where it happened. */
export class GraphQLSyntaxError extends Error {
  constructor(
    message: string,
    readonly pos?: Position,
  ) {
    super(message);
    this.name = "GraphQLSyntaxError";
  }
}

/** How gqlparser prints a token in "Unexpected ..." messages. */
export function describeToken(tok: Token): string {
  return tok.value !== "" ? `${tok.kind} ${JSON.stringify(tok.value)}` : tok.kind;
}

const punctuation: Record<string, TokenKind> = {
  "!": "!",
  $: "$",
  "&": "&",
  "(": "(",
  ")": ")",
  ":": ":",
  "=": "=",
  "@": "@",
  "[": "[",
  "]": "]",
  "{": "{",
  "}": "}",
  "|": "|",
};

const isNameStart = (c: string) => /^[_A-Za-z]$/.test(c);
const isNameChar = (c: string) => /^[_0-9A-Za-z]$/.test(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

export class Lexer {
  private readonly chars: string[];
  private end = 0;
  private start = 0;
  private line = 1;
  private lineStart = 0;

  constructor(input: string) {
    this.chars = Array.from(input);
  }

  /** The next token, or an `<Invalid>` token with the lexing error. */
  readToken(): { token: Token; error?: GraphQLSyntaxError } {
    this.skipIgnored();
    this.start = this.end;
    const c = this.chars[this.end];
    if (c === undefined) return { token: this.make("<EOF>", "") };
    this.end++;
    const punct = punctuation[c];
    if (punct) return { token: this.make(punct, "") };
    if (c === "." && this.chars[this.end] === "." && this.chars[this.end + 1] === ".") {
      this.end += 2;
      return { token: this.make("...", "") };
    }
    if (isNameStart(c)) return this.readName();
    if (c === "-" || isDigit(c)) return this.readNumber();
    if (c === '"') {
      if (this.chars[this.end] === '"' && this.chars[this.end + 1] === '"')
        return this.readBlockString();
      return this.readString();
    }
    this.end--;
    const code = c.codePointAt(0) as number;
    if (code < 0x20 && c !== "\t" && c !== "\n" && c !== "\r") {
      return this.fail(
        `Cannot contain the invalid character "\\u${code.toString(16).padStart(4, "0")}"`,
      );
    }
    if (c === "'") {
      return this.fail(
        `Unexpected single quote character ('), did you mean to use a double quote (")?`,
      );
    }
    return this.fail(`Cannot parse the unexpected character "${c}".`);
  }

  private make(kind: TokenKind, value: string, startOffset = 0): Token {
    return {
      kind,
      value,
      pos: { line: this.line, column: this.start + startOffset - this.lineStart + 1 },
    };
  }

  private fail(message: string): { token: Token; error: GraphQLSyntaxError } {
    const pos = { line: this.line, column: this.end - this.lineStart + 1 };
    return {
      token: { kind: "<Invalid>", value: "", pos },
      error: new GraphQLSyntaxError(message, pos),
    };
  }

  private newLine(): void {
    this.line++;
    this.lineStart = this.end;
  }

  /** Whitespace, commas, line breaks, byte-order marks and comments. */
  private skipIgnored(): void {
    for (;;) {
      const c = this.chars[this.end];
      if (c === "\t" || c === " " || c === "," || c === "\uFEFF") this.end++;
      else if (c === "\n") {
        this.end++;
        this.newLine();
      } else if (c === "\r") {
        this.end++;
        if (this.chars[this.end] === "\n") this.end++;
        this.newLine();
      } else if (c === "#") {
        while (
          this.end < this.chars.length &&
          this.chars[this.end] !== "\n" &&
          this.chars[this.end] !== "\r"
        ) {
          this.end++;
        }
      } else return;
    }
  }

  private readName(): { token: Token } {
    while (this.end < this.chars.length && isNameChar(this.chars[this.end] as string)) this.end++;
    return { token: this.make("Name", this.chars.slice(this.start, this.end).join("")) };
  }

  private describeNext(): string {
    const c = this.chars[this.end];
    return c === undefined ? "<EOF>" : `"${c}"`;
  }

  private acceptDigits(): number {
    const from = this.end;
    while (isDigit(this.chars[this.end])) this.end++;
    return this.end - from;
  }

  private readNumber(): { token: Token; error?: GraphQLSyntaxError } {
    this.end = this.start;
    let float = false;
    if (this.chars[this.end] === "-") this.end++;
    if (this.chars[this.end] === "0") {
      this.end++;
      if (this.acceptDigits() !== 0) {
        this.end--;
        return this.fail(`Invalid number, unexpected digit after 0: ${this.describeNext()}.`);
      }
    } else if (this.acceptDigits() === 0) {
      return this.fail(`Invalid number, expected digit but got: ${this.describeNext()}.`);
    }
    if (this.chars[this.end] === ".") {
      this.end++;
      float = true;
      if (this.acceptDigits() === 0) {
        return this.fail(`Invalid number, expected digit but got: ${this.describeNext()}.`);
      }
    }
    if (this.chars[this.end] === "e" || this.chars[this.end] === "E") {
      this.end++;
      float = true;
      if (this.chars[this.end] === "-" || this.chars[this.end] === "+") this.end++;
      if (this.acceptDigits() === 0) {
        return this.fail(`Invalid number, expected digit but got: ${this.describeNext()}.`);
      }
    }
    return {
      token: this.make(float ? "Float" : "Int", this.chars.slice(this.start, this.end).join("")),
    };
  }

  private readString(): { token: Token; error?: GraphQLSyntaxError } {
    let out = "";
    while (this.end < this.chars.length) {
      const c = this.chars[this.end] as string;
      const code = c.codePointAt(0) as number;
      if (c === "\n" || c === "\r") break;
      if (code < 0x20 && c !== "\t") {
        return this.fail(
          `Invalid character within String: "\\u${code.toString(16).padStart(4, "0")}".`,
        );
      }
      if (c === '"') {
        this.end++;
        return { token: this.make("String", out, 1) };
      }
      if (c !== "\\") {
        out += c;
        this.end++;
        continue;
      }
      const escaped = this.readEscape();
      if (typeof escaped !== "string") return escaped;
      out += escaped;
    }
    return this.fail("Unterminated string.");
  }

  private readEscape(): string | { token: Token; error: GraphQLSyntaxError } {
    const e = this.chars[this.end + 1];
    if (e !== undefined && SIMPLE_ESCAPES[e] !== undefined) {
      this.end += 2;
      return SIMPLE_ESCAPES[e] as string;
    }
    if (e === "u") {
      const hex = this.chars.slice(this.end + 2, this.end + 6).join("");
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
        this.end++;
        return this.fail(`Invalid character escape sequence: \\${hex}.`);
      }
      this.end += 6;
      return String.fromCharCode(Number.parseInt(hex, 16));
    }
    this.end++;
    return this.fail(`Invalid character escape sequence: \\${e ?? ""}.`);
  }

  private readBlockString(): { token: Token; error?: GraphQLSyntaxError } {
    this.end += 2;
    const startLine = this.line;
    const startColumn = this.start + 3 - this.lineStart + 1;
    let raw = "";
    while (this.end < this.chars.length) {
      const c = this.chars[this.end] as string;
      if (c === '"' && this.chars[this.end + 1] === '"' && this.chars[this.end + 2] === '"') {
        this.end += 3;
        const token: Token = {
          kind: "BlockString",
          value: blockStringValue(raw),
          pos: { line: startLine, column: startColumn },
        };
        return { token };
      }
      const code = c.codePointAt(0) as number;
      if (code < 0x20 && c !== "\t" && c !== "\n" && c !== "\r") {
        return this.fail(
          `Invalid character within String: "\\u${code.toString(16).padStart(4, "0")}".`,
        );
      }
      if (c === "\\" && this.chars.slice(this.end + 1, this.end + 4).join("") === '"""') {
        raw += '"""';
        this.end += 4;
      } else if (c === "\r") {
        if (this.chars[this.end + 1] === "\n") this.end++;
        raw += "\n";
        this.end++;
        this.newLine();
      } else {
        raw += c;
        this.end++;
        if (c === "\n") this.newLine();
      }
    }
    return this.fail("Unterminated string.");
  }
}

/** The spec's BlockStringValue: strip common indentation and blank first/last lines. */
export function blockStringValue(raw: string): string {
  const lines = raw.split(/\r\n|[\n\r]/);
  let common: number | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const indent = line.length - line.replace(/^[ \t]+/, "").length;
    if (indent < line.length && (common === undefined || indent < common)) common = indent;
  }
  if (common !== undefined && common > 0) {
    for (let i = 1; i < lines.length; i++) lines[i] = (lines[i] as string).slice(common);
  }
  const blank = (l: string) => /^[ \t]*$/.test(l);
  while (lines.length > 0 && blank(lines[0] as string)) lines.shift();
  while (lines.length > 0 && blank(lines[lines.length - 1] as string)) lines.pop();
  return lines.join("\n");
}
