// Fits a prompt to the context window: keeps num_keep tokens and the end, drops the middle.
import { LlmsrvError } from "../errors.js";

/** Ollama's default `num_keep`: prompt tokens always kept at the start when truncating. */
export const DEFAULT_NUM_KEEP = 4;

/** What fitting a prompt into the context window needs to know. */
export interface WindowSpec {
  contextSize: number;
  /** Whether the model adds a beginning-of-text token (it takes a place in the window). */
  addsBos: boolean;
  /** Tokens kept at the start (`num_keep`; negative keeps the whole prompt, as in Ollama). */
  numKeep: number;
  /** Tokens the request wants generated, when bounded (`num_predict`). */
  numPredict: number | undefined;
  /** false: a prompt that does not fit is refused (Ollama's `truncate: false`). */
  truncate: boolean;
}

/** Ollama's words when a prompt does not fit and may not be truncated. */
export const INPUT_TOO_LONG = "the input length exceeds the context length";

/**
 * Places left for the answer when a prompt is cut to fit: Ollama truncates the prompt to the
 * whole window and then shifts the context while generating (dropping half of what is not
 * kept); with no context shift here, a cut prompt leaves that room (or `num_predict`, when
 * smaller) instead.
 */
export function answerRoom(
  contextSize: number,
  numKeep: number,
  numPredict: number | undefined,
): number {
  const shiftRoom = Math.max(1, Math.floor((contextSize - Math.max(0, numKeep) - 1) / 2));
  return Math.max(1, Math.min(numPredict ?? shiftRoom, shiftRoom));
}

/** Prompt tokens (beginning token excluded) a cut prompt keeps. */
function promptBudget(w: WindowSpec, keep: number): number {
  const bos = w.addsBos ? 1 : 0;
  return w.contextSize - bos - answerRoom(w.contextSize, keep, w.numPredict);
}

/**
 * Fits prompt tokens (without the beginning-of-text token) into the window as Ollama's runner
 * does: when they do not fit, the first `num_keep` tokens and the end of the prompt are kept
 * and the middle is dropped. Returns the tokens unchanged when they fit.
 */
export function fitPromptTokens(tokens: readonly number[], w: WindowSpec): number[] {
  const bos = w.addsBos ? 1 : 0;
  if (tokens.length + bos < w.contextSize) return [...tokens];
  if (!w.truncate) throw new LlmsrvError("bad_request", INPUT_TOO_LONG);
  const keep = Math.max(
    0,
    Math.min(w.numKeep < 0 ? tokens.length : w.numKeep, w.contextSize - bos - 2),
  );
  const budget = Math.max(keep + 1, promptBudget(w, keep));
  const tail = budget - keep;
  return [...tokens.slice(0, keep), ...tokens.slice(tokens.length - tail)];
}

/**
 * For a prompt known to be far longer than the window (from its length alone), the parts of
 * its text that can contribute tokens: the start (for `num_keep`) and the end. Tokenizing
 * only these keeps the work bounded by the window, not by the prompt (llama.cpp's tokenizer
 * is superlinear on long runs without spaces). `maxTokenBytes` bounds the bytes of one token.
 */
export function windowTextParts(
  text: string,
  w: WindowSpec,
  maxTokenBytes: number,
): { head: string; tail: string } {
  // Characters are at most 4 bytes and at least 1: a span of n * maxTokenBytes characters
  // holds at least n tokens. One token more on each side absorbs a token split by the cut.
  const keep = Math.max(0, w.numKeep);
  const headChars = (keep + 1) * maxTokenBytes;
  const tailChars = (w.contextSize + 1) * maxTokenBytes;
  return {
    head: keep === 0 ? "" : text.slice(0, headChars),
    tail: text.slice(Math.max(headChars, text.length - tailChars)),
  };
}
