// The demo model's SentencePiece vocabulary: special tokens, bytes and words.
import { COMMON_WORDS, SAMPLE_WORDS, STOP_WORDS } from "./demo-words.js";

/** SentencePiece's word-boundary marker, kept as a normal token so spaces round-trip. */
export const SPACE_PIECE = "\u2581";

/** Token kinds of llama.cpp's vocabulary (`tokenizer.ggml.token_type`). */
export const TokenType = { Normal: 1, Unknown: 2, Control: 3, Byte: 6 } as const;

/**
 * What a token's embedding holds: a `word` has a full-weight vector (shared by every token
 * with the same stem); every other kind a tiny one that barely moves a text's mean.
 */
export type TokenRole =
  | { kind: "control" | "byte" | "space" | "piece" | "stop" }
  | { kind: "word"; stem: string };

/** A vocabulary in llama.cpp's SPM form, with what the demo model does with each token. */
export interface DemoVocabulary {
  tokens: string[];
  types: number[];
  scores: number[];
  roles: TokenRole[];
}

/** Byte-level SPM vocabulary: `<unk>`, `<s>`, `</s>`, 256 byte tokens `<0xNN>`, then `▁`. */
export function byteVocabulary(): DemoVocabulary {
  const tokens = ["<unk>", "<s>", "</s>"];
  const types: number[] = [TokenType.Unknown, TokenType.Control, TokenType.Control];
  const roles: TokenRole[] = [{ kind: "control" }, { kind: "control" }, { kind: "control" }];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(TokenType.Byte);
    roles.push({ kind: "byte" });
  }
  tokens.push(SPACE_PIECE);
  types.push(TokenType.Normal);
  roles.push({ kind: "space" });
  return { tokens, types, scores: tokens.map(() => 0), roles };
}

/**
 * A crude suffix-stripping stem, so "whale", "whales" and "whaling" share a vector:
 * lower case, one of -ies/-ing/-ed/-es/-s off, a final -e off, a doubled final letter halved.
 * Stems keep at least three letters.
 */
export function stemOf(word: string): string {
  let w = word.toLowerCase();
  const cut = (suffix: string, by = "") => {
    if (!w.endsWith(suffix) || w.length - suffix.length < 3) return false;
    w = w.slice(0, w.length - suffix.length) + by;
    return true;
  };
  if (!cut("ies", "y") && !cut("ing") && !cut("ed") && !cut("es") && !w.endsWith("ss")) cut("s");
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  const n = w.length;
  if (n > 3 && w[n - 1] === w[n - 2] && !"aeiou".includes(w[n - 1] ?? "")) w = w.slice(0, -1);
  return w;
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * The demo model's vocabulary: the byte vocabulary, then every word of the lists in
 * demo-words.ts as one token `▁word`, in lower case and capitalised. llama.cpp's SPM
 * tokenizer only merges two pieces when the merged text is a token, so every prefix of
 * `▁word` is a token too (a `piece`); a word outside the lists is spelled with pieces and bytes.
 */
export function wordVocabulary(): DemoVocabulary {
  const vocab = byteVocabulary();
  const stop = new Set(STOP_WORDS);
  const words = [...new Set([...STOP_WORDS, ...SAMPLE_WORDS, ...COMMON_WORDS])].sort();
  const forms = new Map<string, string>(); // token text -> the word it spells
  for (const w of words) {
    forms.set(SPACE_PIECE + w, w);
    forms.set(SPACE_PIECE + capitalised(w), w);
  }
  const seen = new Set(vocab.tokens);
  for (const form of forms.keys()) {
    for (let end = 2; end <= form.length; end++) {
      const piece = form.slice(0, end);
      if (seen.has(piece)) continue;
      seen.add(piece);
      const word = forms.get(piece);
      vocab.tokens.push(piece);
      vocab.types.push(TokenType.Normal);
      vocab.scores.push(0);
      vocab.roles.push(
        word === undefined
          ? { kind: "piece" }
          : stop.has(word)
            ? { kind: "stop" }
            : { kind: "word", stem: stemOf(word) },
      );
    }
  }
  return vocab;
}
