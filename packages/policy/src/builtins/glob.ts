/**
 * glob.match and glob.quote_meta with the glob syntax OPA uses: `*` (any run of
 * non-delimiter characters), `**` (any run), `?` (one non-delimiter character),
 * `[abc]`, `[a-z]`, `[!...]` (one class per bracket), `{a,b}` alternatives and `\` escapes.
 * A glob is translated to an anchored RE2 pattern, which keeps matching linear-time.
 */
import type { RE2JS } from "re2js";
import { BuiltinError, BuiltinTypeError } from "../errors.js";
import type { Value } from "../value/value.js";
import { asString, oneOfError } from "./args.js";
import { withNamePrefix } from "./error-prefix.js";
import { compileRegex } from "./regex.js";
import type { BuiltinDef } from "./registry-types.js";
import { elementError } from "./strings.js";

/** A code point written so RE2 reads it literally, inside or outside a class. */
function lit(ch: string): string {
  return /^[A-Za-z0-9_]$/.test(ch) ? ch : `\\x{${(ch.codePointAt(0) as number).toString(16)}}`;
}

/** Translates a glob into an RE2 pattern body, reading one rune at a time. */
class GlobTranslator {
  private i = 0;
  private readonly src: string[];

  constructor(
    glob: string,
    private readonly delimiters: string[],
  ) {
    this.src = Array.from(glob);
  }

  translate(): string {
    const body = this.sequence(false);
    if (this.i < this.src.length) throw new BuiltinError("unexpected end of input");
    return `^${body}$`;
  }

  /** Any run of non-delimiters (or anything when there are no delimiters). */
  private nonDelimiter(): string {
    return this.delimiters.length === 0 ? "(?s:.)" : `[^${this.delimiters.map(lit).join("")}]`;
  }

  /** Glob text up to the end, or up to `,`/`}` inside alternatives. */
  private sequence(inTerms: boolean): string {
    let out = "";
    while (this.i < this.src.length) {
      const c = this.src[this.i] as string;
      if (inTerms && (c === "," || c === "}")) break;
      this.i++;
      if (c === "*") {
        if (this.src[this.i] === "*") {
          this.i++;
          out += "(?s:.*)";
        } else out += `${this.nonDelimiter()}*`;
      } else if (c === "?") out += this.nonDelimiter();
      else if (c === "[") out += this.charClass();
      else if (c === "{") out += this.alternatives();
      else if (c === "\\") {
        if (this.i < this.src.length) out += lit(this.src[this.i++] as string);
      } else out += lit(c);
    }
    return out;
  }

  private alternatives(): string {
    const options: string[] = [];
    for (;;) {
      options.push(this.sequence(true));
      const c = this.src[this.i++];
      if (c === "}") return `(?:${options.join("|")})`;
      if (c !== ",") throw new BuiltinError("unexpected end of input");
    }
  }

  /** `[` was read: `[!]lo-hi]` or `[!]chars]`. */
  private charClass(): string {
    const next = (): string => {
      const c = this.src[this.i++];
      if (c === undefined) throw new BuiltinError("unexpected end of input");
      return c;
    };
    let negate = false;
    let c = next();
    if (c === "!") {
      negate = true;
      c = next();
    }
    let body: string;
    if (this.src[this.i] === "-") {
      this.i++;
      const hi = next();
      if (next() !== "]") throw new BuiltinError("expected close range character");
      body = `${lit(c)}-${lit(hi)}`;
    } else {
      const chars: string[] = [];
      while (c !== "]") {
        if (c === "\\") c = next();
        chars.push(c);
        c = next();
      }
      body = chars.map(lit).join("");
      if (body === "") return negate ? "(?s:.)" : "[^\\x{0}-\\x{10ffff}]";
    }
    return `[${negate ? "^" : ""}${body}]`;
  }
}

/** The delimiter runes: null means none, an empty array means ".". Each must be one rune. */
function delimitersOf(v: Value): string[] {
  if (v === null) return [];
  if (!Array.isArray(v)) throw oneOfError("glob.match", 2, ["array", "null"], v);
  const runes = v.map((d) => {
    if (typeof d !== "string") throw elementError("glob.match", 2, v, d);
    const chars = Array.from(d);
    if (chars.length !== 1) {
      throw new BuiltinTypeError(
        "glob.match: operand 2 must be array of runes but got array containing string",
      );
    }
    return chars[0] as string;
  });
  return runes.length === 0 ? ["."] : runes;
}

/** The compiled matcher for a glob and its delimiters. */
export function compileGlob(glob: string, delimiters: string[]): RE2JS {
  const key = `${delimiters.join("")}\u0000${glob}`;
  let pattern = translated.get(key);
  if (pattern === undefined) {
    pattern = new GlobTranslator(glob, delimiters).translate();
    if (translated.size >= TRANSLATION_CACHE_LIMIT) translated.clear();
    translated.set(key, pattern);
  }
  return compileRegex(pattern);
}

/** Translated patterns by delimiters and glob; cleared wholesale when full (it is cheap to refill). */
const translated = new Map<string, string>();
const TRANSLATION_CACHE_LIMIT = 500;

function globMatch(args: Value[]): Value {
  const pattern = asString("glob.match", args[0] as Value, 1);
  const delimiters = delimitersOf(args[1] as Value);
  const subject = asString("glob.match", args[2] as Value, 3);
  return compileGlob(pattern, delimiters).matches(subject);
}

/** Escapes the glob metacharacters `* ? \ [ ] { }`. */
function quoteMeta(args: Value[]): Value {
  const s = asString("glob.quote_meta", args[0] as Value, 1);
  return s.replace(/[*?\\[\]{}]/g, (c) => `\\${c}`);
}

export const globBuiltins: BuiltinDef[] = withNamePrefix([
  {
    name: "glob.match",
    args: ["string", "array[string] | null", "string"],
    result: "boolean",
    impl: globMatch,
  },
  { name: "glob.quote_meta", args: ["string"], result: "string", impl: quoteMeta },
]);
