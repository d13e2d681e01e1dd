// Fits a prompt of text and media chunks into the context window (media are never cut).
import { badRequest } from "../../errors.js";
import { answerRoom, INPUT_TOO_LONG, type WindowSpec } from "../prompt-window.js";
import type { NativeChunk } from "./mtmd-addon.js";

/** What to evaluate: token arrays and prepared-chunk indexes, with their counts. */
export interface FittedPrompt {
  items: Array<Int32Array | number>;
  /** The text tokens kept, in order (the prompt's tokens as the result reports them). */
  textTokens: number[];
  /** Tokens evaluated: beginning token, text and media. */
  total: number;
  mediaTokens: number;
}

type Unit = { token: number } | { chunk: number; count: number };

/**
 * The items of a prompt (the previous exchange's tokens, then its chunks) fitted to the window
 * as prompt-window.ts fits text: when it does not fit, the first `num_keep` tokens and the end
 * are kept and text in between is dropped, oldest first, but an image or audio clip is kept
 * whole or the request refused: more media tokens than the window holds is a bad request
 * naming both numbers.
 */
export function fitMediaPrompt(
  prefix: readonly number[],
  chunks: readonly NativeChunk[],
  bos: number,
  w: WindowSpec,
): FittedPrompt {
  const units: Unit[] = prefix.map((token) => ({ token }));
  let mediaTokens = 0;
  chunks.forEach((c, i) => {
    if (c.type === "text") for (const token of c.tokens) units.push({ token });
    else {
      units.push({ chunk: i, count: c.tokenCount });
      mediaTokens += c.tokenCount;
    }
  });
  const head = bos >= 0 ? 1 : 0;
  const sizeOf = (u: Unit) => ("token" in u ? 1 : u.count);
  let size = head + units.reduce((n, u) => n + sizeOf(u), 0);
  if (head + mediaTokens + 1 > w.contextSize) {
    throw badRequest(
      `the prompt's images and audio take ${mediaTokens} tokens, more than the context window of ${w.contextSize} tokens holds (raise num_ctx or send fewer)`,
    );
  }
  if (size >= w.contextSize) {
    if (!w.truncate) throw badRequest(INPUT_TOO_LONG);
    const keep = Math.max(0, w.numKeep < 0 ? units.length : w.numKeep);
    const budget = w.contextSize - answerRoom(w.contextSize, keep, w.numPredict);
    // Drop text units after the kept head, oldest first, until the prompt fits the budget.
    for (let i = Math.min(keep, units.length); i < units.length && size > budget; ) {
      const u = units[i] as Unit;
      if ("token" in u) {
        units.splice(i, 1);
        size -= 1;
      } else i++;
    }
    if (size >= w.contextSize) {
      throw badRequest(
        `the prompt does not fit the context window of ${w.contextSize} tokens: its images and audio take ${mediaTokens} and the text kept ${size - mediaTokens - head}`,
      );
    }
  }
  const items: Array<Int32Array | number> = [];
  const textTokens: number[] = [];
  let run: number[] = head ? [bos] : [];
  for (const u of units) {
    if ("token" in u) {
      run.push(u.token);
      textTokens.push(u.token);
    } else {
      if (run.length > 0) items.push(Int32Array.from(run));
      run = [];
      items.push(u.chunk);
    }
  }
  if (run.length > 0) items.push(Int32Array.from(run));
  return { items, textTokens, total: size, mediaTokens };
}
