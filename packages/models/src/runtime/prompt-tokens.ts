// The tokens a generation starts from: context, prompt and images, fitted to the window.
import type { LlamaModel } from "node-llama-cpp";
import { LlmsrvError } from "../errors.js";
import type { CompletionRequest } from "./model-runner.js";
import {
  fitPromptTokens,
  INPUT_TOO_LONG,
  type WindowSpec,
  windowTextParts,
} from "./prompt-window.js";

/**
 * The token node-llama-cpp places before a prompt's (llama.cpp's tokenizer rules): a WPM
 * vocabulary's beginning token, none for UGM and RWKV, else the beginning token when the
 * model asks for it.
 */
export function beginningTokenOf(model: LlamaModel): number | null {
  const type = model.vocabularyType as string;
  if (type === "rwkv" || type === "ugm") return null;
  if (type === "wpm") return model.tokens.bos;
  return model.tokens.shouldPrependBosToken ? model.tokens.bos : null;
}

/**
 * The tokens a generation starts from: the previous exchange's `context`, the prompt (or
 * the fill-in-the-middle frame around prompt and suffix), fitted to the context window.
 */
export class PromptTokens {
  private longestToken: number | undefined;

  constructor(
    private readonly model: LlamaModel,
    private readonly contextSize: number,
  ) {}

  private vocabulary(): readonly unknown[] | undefined {
    const meta = this.model.fileInfo.metadata as {
      tokenizer?: { ggml?: { tokens?: readonly unknown[] } };
    };
    return meta.tokenizer?.ggml?.tokens;
  }

  private vocabularySize(): number {
    return this.vocabulary()?.length ?? Number.MAX_SAFE_INTEGER;
  }

  /**
   * The most UTF-8 bytes of text one token can stand for (its vocabulary string's length, an
   * over-estimate for byte and space-marker tokens), so `bytes / maxTokenBytes` is a lower
   * bound of a text's token count; 0 when the vocabulary is not in the metadata.
   */
  private maxTokenBytes(): number {
    if (this.longestToken === undefined) {
      let longest = 0;
      for (const t of this.vocabulary() ?? []) {
        if (typeof t === "string") longest = Math.max(longest, Buffer.byteLength(t));
      }
      this.longestToken = longest;
    }
    return this.longestToken;
  }

  /** The token placed before the prompt's, if any (beginningTokenOf). */
  beginningToken(): number | null {
    return beginningTokenOf(this.model);
  }

  tokenize(text: string): number[] {
    return this.model.tokenize(text, true) as number[];
  }

  private windowFor(req: CompletionRequest): WindowSpec {
    return {
      contextSize: this.contextSize,
      addsBos: this.model.tokens.bos !== null,
      numKeep: req.sampling.numKeep,
      numPredict: req.sampling.numPredict,
      truncate: req.truncate ?? true,
    };
  }

  /**
   * The prefix and prompt tokens, tokenizing only the start and end of a prompt whose length
   * alone shows it is far longer than the window: llama.cpp's tokenizer is superlinear on
   * long runs without spaces (a 320k-character run took 10 s on the demo model).
   */
  private rawPromptTokens(req: CompletionRequest, w: WindowSpec): number[] {
    const prefix = req.prefixTokens ?? [];
    if (req.suffix !== undefined)
      return [...prefix, ...this.fillInTheMiddle(req.prompt, req.suffix)];
    const longest = this.maxTokenBytes();
    const atLeast = longest === 0 ? 0 : Math.ceil(Buffer.byteLength(req.prompt) / longest);
    if (prefix.length + atLeast < 2 * w.contextSize)
      return [...prefix, ...this.tokenize(req.prompt)];
    if (!w.truncate) throw new LlmsrvError("bad_request", INPUT_TOO_LONG);
    const { head, tail } = windowTextParts(req.prompt, w, longest);
    const headTokens = head === "" ? [] : this.tokenize(head).slice(0, Math.max(0, w.numKeep));
    return [...prefix, ...headTokens, ...this.tokenize(tail).slice(1)];
  }

  /** `<prefix> prompt <suffix> suffix <middle>`, the order llama.cpp's infill uses. */
  private fillInTheMiddle(prompt: string, suffix: string): number[] {
    const { prefix, suffix: suf, middle } = this.model.tokens.infill;
    if (prefix === null || suf === null)
      throw new LlmsrvError("bad_request", "the model has no fill-in-the-middle tokens");
    return [
      prefix,
      ...this.tokenize(prompt),
      suf,
      ...this.tokenize(suffix),
      ...(middle === null ? [] : [middle]),
    ];
  }

  /** Tokens of the prompt (after any prefix), checked against the vocabulary, fitted to the window. */
  tokensFor(req: CompletionRequest): { promptTokens: number[]; total: number } {
    const vocab = this.vocabularySize();
    const bad = req.prefixTokens?.find((t) => !Number.isInteger(t) || t < 0 || t >= vocab);
    if (bad !== undefined) {
      throw new LlmsrvError(
        "bad_request",
        `context holds token ${bad}, outside the vocabulary (0-${vocab - 1})`,
      );
    }
    const w = this.windowFor(req);
    const promptTokens = fitPromptTokens(this.rawPromptTokens(req, w), w);
    const total = promptTokens.length + (w.addsBos ? 1 : 0);
    return { promptTokens, total };
  }
}
