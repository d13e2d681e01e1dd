// `POST /api/generate`: a completion from a prompt, streamed as NDJSON or answered whole.
import { LlmsrvError } from "../../errors.js";
import { checkMediaForModel, decodeImagesField } from "../../media/media-input.js";
import type { OutputFormat } from "../../runtime/model-runner.js";
import { type CompletionOutcome, loadOnly, runCompletion } from "../../service/completion.js";
import { type InsertMode, insertModeFor } from "../../service/insert.js";
import {
  nowTimestamp,
  parseFormat,
  parseKeepAlive,
  requireCapability,
} from "../../service/request-fields.js";
import { resolveThink, type ThinkValue, thinkingParserFor } from "../../service/thinking.js";
import { requireModelName } from "../../store/model-name.js";
import type { StoredModel } from "../../store/stored-model.js";
import { buildGeneratePrompt } from "../../template/build-prompt.js";
import { NdjsonWriter } from "../ndjson.js";
import { optionalBool, optionalString } from "../request-body.js";
import type { RequestContext } from "../router.js";

function parseContext(value: unknown): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((t) => !Number.isInteger(t))) {
    throw new LlmsrvError("bad_request", `field "context" must be an array of integers`);
  }
  return value as number[];
}

/** The final object of a generation (last NDJSON line, or the whole non-streamed body). */
function finalBody(model: string, response: string, o: CompletionOutcome, withContext: boolean) {
  const r = o.result;
  return {
    model,
    created_at: nowTimestamp(),
    response,
    done: true,
    done_reason: r.doneReason,
    ...(withContext ? { context: [...r.promptTokens, ...r.outputTokens] } : {}),
    total_duration: o.totalNs,
    load_duration: o.loadNs,
    prompt_eval_count: r.promptEvalCount,
    prompt_eval_duration: r.promptEvalNs,
    eval_count: r.evalCount,
    eval_duration: r.evalNs,
  };
}

/** The fields of a generate request, validated. */
interface GenerateRequest {
  model: StoredModel;
  /** The name as the client sent it, echoed in every answer (as Ollama does). */
  asked: string;
  prompt: string;
  raw: boolean;
  stream: boolean;
  system?: string;
  template?: string;
  suffix?: string;
  context?: number[];
  keepAliveMs: number | undefined;
  format: OutputFormat | undefined;
  options: unknown;
  /** A prompt longer than the window is truncated (default) or refused (false). */
  truncate: boolean;
  /** The think flag after Ollama's default. */
  think?: ThinkValue;
  /** How `suffix` is placed, when given. */
  insert?: InsertMode;
  /** Images and audio clips, decoded, in `[img-N]` order. */
  media: Uint8Array[];
}

/** Reads and checks every field before anything is loaded or streamed. */
async function parseGenerateRequest(ctx: RequestContext): Promise<GenerateRequest> {
  const body = await ctx.body();
  requireModelName(body.model);
  const model = await ctx.deps.store.get(body.model as string);
  requireCapability(model, "completion");
  const req: GenerateRequest = {
    model,
    asked: body.model as string,
    prompt: optionalString(body, "prompt") ?? "",
    raw: optionalBool(body, "raw") ?? false,
    stream: optionalBool(body, "stream") ?? true,
    system: optionalString(body, "system"),
    template: optionalString(body, "template"),
    suffix: optionalString(body, "suffix"),
    context: parseContext(body.context),
    keepAliveMs: parseKeepAlive(body.keep_alive),
    format: parseFormat(body.format),
    options: body.options,
    truncate: optionalBool(body, "truncate") ?? true,
    media: decodeImagesField(body.images, "images") ?? [],
  };
  checkMediaForModel(
    model,
    req.media.map((bytes, i) => ({ bytes, label: `images[${i}]` })),
  );
  req.think = resolveThink(model, body.think, req.asked);
  if (
    req.raw &&
    (req.template !== undefined || req.system !== undefined || req.context !== undefined)
  ) {
    throw new LlmsrvError("bad_request", "raw mode does not support template, system, or context");
  }
  if (req.suffix) req.insert = insertModeFor(model, req.template);
  return req;
}

/** Empty prompt: load the model (`done_reason: "load"`), or unload it with keep_alive 0. */
async function loadOrUnload(ctx: RequestContext, req: GenerateRequest): Promise<void> {
  const base = { model: req.asked, created_at: nowTimestamp(), response: "", done: true };
  if (req.keepAliveMs === 0) {
    await ctx.deps.scheduler.stop(req.model);
    return ctx.json(200, { ...base, done_reason: "unload" });
  }
  const started = process.hrtime.bigint();
  const loadNs = await loadOnly(ctx.deps, req.model, req.options, req.keepAliveMs, ctx.signal);
  const total = Number(process.hrtime.bigint() - started);
  ctx.json(200, { ...base, done_reason: "load", total_duration: total, load_duration: loadNs });
}

/** `POST /api/generate`: completion of a prompt, NDJSON-streamed unless `stream: false`. */
export async function generateHandler(ctx: RequestContext): Promise<void> {
  const req = await parseGenerateRequest(ctx);
  if (req.prompt === "") return loadOrUnload(ctx, req);
  const { model, raw } = req;
  // Fill-in-the-middle tokens are placed by the runtime around the prompt as it is.
  const byTokens = req.insert === "tokens" && !raw;
  const rendered = byTokens
    ? req.prompt
    : buildGeneratePrompt(model, {
        prompt: req.prompt,
        system: req.system,
        template: req.template,
        suffix: req.suffix,
        raw,
        think: req.think,
        imageCount: req.media.length,
      });
  const out = req.stream ? new NdjsonWriter(ctx.res) : undefined;
  // The reasoning is split from the answer as it streams (never in raw mode).
  const parser = raw ? undefined : thinkingParserFor(model, req.think, rendered);
  let response = "";
  let thinking = "";
  const onText = (text: string) => {
    const split = parser ? parser.add(text) : { thinking: "", content: text };
    if (split.content === "" && split.thinking === "") return;
    response += split.content;
    thinking += split.thinking;
    out?.write({
      model: req.asked,
      created_at: nowTimestamp(),
      response: split.content,
      ...(split.thinking !== "" ? { thinking: split.thinking } : {}),
      done: false,
    });
  };
  const job = {
    model,
    prompt: rendered,
    media: req.media,
    prefixTokens: req.context,
    suffix: byTokens ? req.suffix : undefined,
    truncate: req.truncate,
    options: req.options,
    keepAliveMs: req.keepAliveMs,
    format: req.format,
    signal: ctx.signal,
    onText,
  };
  if (!out) {
    const outcome = await runCompletion(ctx.deps, job);
    const body = finalBody(req.asked, response, outcome, !raw);
    return ctx.json(200, thinking === "" ? body : { ...body, thinking });
  }
  try {
    const outcome = await runCompletion(ctx.deps, job);
    out.write(finalBody(req.asked, "", outcome, !raw));
  } catch (e) {
    if (!out.headersSent) throw e;
    out.writeError(e);
  }
  out.end();
}
