/**
 * The YAML of one METADATA block: its fields, or the error OPA's parser reports for it,
 * with the message in OPA's form (`yaml: line N: ...`) and the comment it belongs to.
 */
import { LineCounter, parseDocument } from "yaml";
import type { Comment } from "./lexer.js";

/** A METADATA block: the comment starting with `METADATA` and the YAML lines under it. */
export interface MetadataBlock {
  header: Comment;
  lines: Comment[];
}

export type BlockReading =
  | { fields: Record<string, unknown> }
  | { error: string; at: Comment; hint: boolean };

// OPA reads YAML with go-yaml; our YAML library words a few common mistakes differently.
const goYamlWording: [RegExp, string][] = [
  [
    /^Nested mappings are not allowed in compact mappings/,
    "mapping values are not allowed in this context",
  ],
  [/^Implicit map keys need to be followed by map values/, "could not find expected ':'"],
  [/^Tabs are not allowed as indentation/, "found character that cannot start any token"],
  [
    /^Plain value cannot start with reserved character/,
    "found character that cannot start any token",
  ],
];

// go-yaml refuses any character outside YAML's printable set, before parsing.
const nonPrintable = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** Reads the block's YAML as OPA does (one leading space of each line dropped). */
export function readBlock(block: MetadataBlock): BlockReading {
  const { header, lines } = block;
  const text = lines.map((c) => `${c.text.startsWith(" ") ? c.text.slice(1) : c.text}\n`).join("");
  if (text.trim() === "") {
    return { error: "expected METADATA block, found whitespace", at: header, hint: false };
  }
  const lineAt = (n: number) => lines[Math.min(Math.max(n, 1), lines.length) - 1] as Comment;
  if (nonPrintable.test(text)) {
    return { error: "yaml: control characters are not allowed", at: lineAt(1), hint: true };
  }
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const line = counter.linePos(first.pos[0]).line;
    const said = first.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? "";
    const wording = goYamlWording.find(([re]) => re.test(said))?.[1] ?? said;
    // go-yaml leaves the line out of errors found on the first line.
    const where = line > 1 ? `line ${line}: ` : "";
    return { error: `yaml: ${where}${wording}`, at: lineAt(line), hint: true };
  }
  const value = doc.toJS() as unknown;
  if (value === null || value === undefined) return { fields: {} };
  if (typeof value !== "object" || Array.isArray(value)) {
    const start = (doc.contents as { range?: number[] } | null)?.range?.[0] ?? 0;
    const line = counter.linePos(start).line;
    return { error: unmarshalError(value, line), at: lineAt(line), hint: true };
  }
  return { fields: value as Record<string, unknown> };
}

/** go-yaml's message for a document that is not a mapping (OPA decodes into a struct). */
function unmarshalError(value: unknown, line: number): string {
  let what: string;
  if (Array.isArray(value)) what = "!!seq";
  else {
    const tag =
      typeof value === "string"
        ? "!!str"
        : typeof value === "boolean"
          ? "!!bool"
          : Number.isInteger(value)
            ? "!!int"
            : "!!float";
    const text = String(value);
    what = `${tag} \`${text.length > 10 ? `${text.slice(0, 7)}...` : text}\``;
  }
  return `yaml: unmarshal errors:\n  line ${line}: cannot unmarshal ${what} into ast.rawAnnotation`;
}

/**
 * OPA's hints for a block that failed to read: each line where a `:` is followed by
 * something other than a space or tab, which YAML does not take as a key/value separator.
 */
export function separatorHints(lines: Comment[]): string {
  let out = "";
  for (const c of lines) {
    if (!c.text.includes(":")) continue;
    const parts = c.text.split(":").slice(1);
    const bad: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      if (part === "" && i === parts.length - 1) break;
      const cp = part === "" ? 0xfffd : (part.codePointAt(0) as number);
      if (cp === 0x20 || cp === 0x09) break;
      bad.push(goQuotedRune(cp));
    }
    if (bad.length > 0) {
      out += `\n  Hint: on line ${c.row}, symbol(s) [${bad.join(" ")}] immediately following a key/value separator ':' is not a legal yaml space character`;
    }
  }
  return out;
}

const runeEscapes: Record<number, string> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  39: "\\'",
  92: "\\\\",
};

/** A rune as Go's `%+q` writes it: ASCII only, `'p'`, `'\u00a0'`, `'\U0001f600'`. */
function goQuotedRune(cp: number): string {
  const escaped = runeEscapes[cp];
  if (escaped) return `'${escaped}'`;
  if (cp >= 0x20 && cp < 0x7f) return `'${String.fromCodePoint(cp)}'`;
  const hex = cp.toString(16);
  if (cp < 0x80) return `'\\x${hex.padStart(2, "0")}'`;
  if (cp < 0x10000) return `'\\u${hex.padStart(4, "0")}'`;
  return `'\\U${hex.padStart(8, "0")}'`;
}
