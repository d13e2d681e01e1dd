// One generation through the scheduler: options, prompt tokens, timings.
import { badRequest } from "../errors.js";
import type { CompletionResult, OutputFormat } from "../runtime/model-runner.js";
import { optionDefaults, resolveOptions } from "../runtime/options.js";
import { answerRoom } from "../runtime/prompt-window.js";
import type { StoredModel } from "../store/stored-model.js";
import { checkImageTags } from "../template/image-tags.js";
import type { TokenCounter } from "./chat-window.js";
import type { ServerDeps } from "./deps.js";

/** A rendered prompt and the images and audio its `[img-N]` tags place, in tag order. */
export interface RenderedPrompt {
  text: string;
  media: Uint8Array[];
}

/** One generation to run through the scheduler. */
export interface CompletionJob {
  model: StoredModel;
  /** The rendered prompt, or a function rendering it once the model is loaded (to fit it). */
  prompt: string | ((counter: TokenCounter) => Promise<string | RenderedPrompt>);
  /** The media of a prompt given as text (a rendering function returns its own). */
  media?: Uint8Array[];
  /** A prompt longer than the window is truncated (default) or refused with 400 (false). */
  truncate?: boolean;
  /** The request's `options` object (validated here, before anything is streamed). */
  options: unknown;
  keepAliveMs: number | undefined;
  format?: OutputFormat;
  /** Text after the insertion point, placed with the model's fill-in-the-middle tokens. */
  suffix?: string;
  /** Tokens of a previous exchange (`context`), placed before the prompt. */
  prefixTokens?: number[];
  signal: AbortSignal;
  onText?: (text: string) => void;
}

/** A finished generation with the time spent waiting for the model. */
export interface CompletionOutcome {
  result: CompletionResult;
  loadNs: number;
  totalNs: number;
}

function optionsFor(deps: ServerDeps, model: StoredModel, options: unknown) {
  return resolveOptions(model.params, options, optionDefaults(deps.config));
}

/** For a model with a projector, every `[img-N]` of the prompt must name a medium sent. */
function checkTags(model: StoredModel, prompt: string, media: readonly Uint8Array[]): void {
  if (model.projectorPath) checkImageTags(prompt, media.length);
}

/** Validates options, takes a slot (loading the model if needed), generates, releases. */
export async function runCompletion(
  deps: ServerDeps,
  job: CompletionJob,
): Promise<CompletionOutcome> {
  const started = process.hrtime.bigint();
  const opts = optionsFor(deps, job.model, job.options);
  if (typeof job.prompt === "string") checkTags(job.model, job.prompt, job.media ?? []);
  const lease = await deps.scheduler.acquire({
    model: job.model,
    numCtx: opts.numCtx,
    numThread: opts.numThread,
    numGpu: opts.numGpu,
    keepAliveMs: job.keepAliveMs,
    signal: job.signal,
  });
  try {
    const loaded = lease.loaded;
    const { numPredict, numKeep } = opts.sampling;
    const counter: TokenCounter = {
      // Room is left for the answer, since the context is not shifted while generating.
      numCtx: opts.numCtx - answerRoom(opts.numCtx, numKeep, numPredict),
      count: async (text) => (await loaded.tokenize(text)).length + 1,
    };
    const rendered = typeof job.prompt === "string" ? job.prompt : await job.prompt(counter);
    const { text: prompt, media } =
      typeof rendered === "string" ? { text: rendered, media: job.media ?? [] } : rendered;
    checkTags(job.model, prompt, media);
    const result = await lease.loaded.complete(
      lease.slot,
      {
        prompt,
        ...(media.length > 0 ? { media } : {}),
        truncate: job.truncate,
        suffix: job.suffix,
        prefixTokens: job.prefixTokens,
        sampling: opts.sampling,
        format: job.format,
      },
      job.onText ?? (() => {}),
      job.signal,
    );
    return { result, loadNs: lease.loadNs, totalNs: Number(process.hrtime.bigint() - started) };
  } finally {
    lease.release();
  }
}

/** Loads a model without generating (empty prompt); returns the nanoseconds it took. */
export async function loadOnly(
  deps: ServerDeps,
  model: StoredModel,
  options: unknown,
  keepAliveMs: number | undefined,
  signal: AbortSignal,
): Promise<number> {
  const opts = optionsFor(deps, model, options);
  const lease = await deps.scheduler.acquire({
    model,
    numCtx: opts.numCtx,
    numThread: opts.numThread,
    numGpu: opts.numGpu,
    keepAliveMs,
    signal,
  });
  lease.release();
  return lease.loadNs;
}

/** Refuses more inputs than one embedding request may carry, before any work. */
function checkEmbedInputCount(deps: ServerDeps, count: number): void {
  const cap = deps.config.maxEmbedInputs;
  if (count > cap) {
    throw badRequest(
      `too many inputs: ${count}, at most ${cap} per embedding request (LLMSRV_MAX_EMBED_INPUTS)`,
    );
  }
}

/**
 * Embeds texts through the scheduler; vectors are raw (not normalised). The runtime works
 * through them in batches, and a canceled request stops between batches.
 */
export async function runEmbedding(
  deps: ServerDeps,
  model: StoredModel,
  texts: string[],
  opts: {
    options: unknown;
    keepAliveMs: number | undefined;
    truncate: boolean;
    signal: AbortSignal;
  },
): Promise<{ vectors: number[][]; promptTokens: number; loadNs: number; totalNs: number }> {
  const started = process.hrtime.bigint();
  checkEmbedInputCount(deps, texts.length);
  const resolved = optionsFor(deps, model, opts.options);
  const lease = await deps.scheduler.acquire({
    model,
    numCtx: resolved.numCtx,
    numThread: resolved.numThread,
    numGpu: resolved.numGpu,
    keepAliveMs: opts.keepAliveMs,
    signal: opts.signal,
  });
  try {
    const r = await lease.loaded.embed(texts, opts.truncate, opts.signal);
    return { ...r, loadNs: lease.loadNs, totalNs: Number(process.hrtime.bigint() - started) };
  } finally {
    lease.release();
  }
}
