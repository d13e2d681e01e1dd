/**
 * Turns generated tokens into text the way Ollama does: each token's own piece, so the first
 * generated token keeps its leading space (`" little"`). llama.cpp's detokenizer drops the
 * leading space of the first token of the text it is given (SentencePiece models); decoding
 * with the tokens just before as context, and keeping only what they add, avoids that.
 */

/** Decodes `tokens` as they read after `context` (node-llama-cpp's `detokenize` signature). */
export type Detokenize = (tokens: readonly number[], context: readonly number[]) => string;

/** Tokens of context given to the detokenizer (enough for merges and the space marker). */
const CONTEXT_TOKENS = 8;
/** A UTF-8 character spans at most four byte tokens. */
const MAX_PARTIAL_TOKENS = 4;
const REPLACEMENT = "\uFFFD";

export class TokenTextDecoder {
  private readonly context: number[];
  private pending: number[] = [];

  /** `context`: the prompt's tokens (only the last few are used). */
  constructor(
    private readonly detokenize: Detokenize,
    context: readonly number[],
  ) {
    this.context = context.slice(-CONTEXT_TOKENS);
  }

  /**
   * Adds generated tokens; returns their text, or "" while they end inside a UTF-8 character
   * (byte tokens), which is returned with the tokens that complete it.
   */
  push(tokens: readonly number[]): string {
    this.pending.push(...tokens);
    const text = this.detokenize(this.pending, this.context);
    if (text.endsWith(REPLACEMENT) && this.pending.length < MAX_PARTIAL_TOKENS) return "";
    return this.accept(text);
  }

  /** The text of tokens still held back (end of generation). */
  flush(): string {
    if (this.pending.length === 0) return "";
    return this.accept(this.detokenize(this.pending, this.context));
  }

  private accept(text: string): string {
    this.context.push(...this.pending);
    this.context.splice(0, Math.max(0, this.context.length - CONTEXT_TOKENS));
    this.pending = [];
    return text;
  }
}
