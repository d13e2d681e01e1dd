import { LlmsrvError } from "../../errors.js";
import { buildGeneratePrompt } from "../../prompt/build-prompt.js";
import { type CompletionOutcome, loadOnly, runCompletion } from "../../service/completion.js";
import {
  nowTimestamp,
  parseFormat,
  parseKeepAlive,
  rejectImagesUnlessSupported,
  requireCapability,
} from "../../service/request-fields.js";
import { requireModelName } from "../../store/model-name.js";
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

/** `POST /api/generate`: completion of a prompt, NDJSON-streamed unless `stream: false`. */
export async function generateHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  requireModelName(body.model);
  const model = await ctx.deps.store.get(body.model as string);
  requireCapability(model, "completion");
  const prompt = optionalString(body, "prompt") ?? "";
  const raw = optionalBool(body, "raw") ?? false;
  const stream = optionalBool(body, "stream") ?? true;
  const system = optionalString(body, "system");
  const template = optionalString(body, "template");
  const suffix = optionalString(body, "suffix");
  const context = parseContext(body.context);
  const keepAliveMs = parseKeepAlive(body.keep_alive);
  const format = parseFormat(body.format);
  rejectImagesUnlessSupported(model, body.images);
  if (raw && (template !== undefined || system !== undefined || context !== undefined)) {
    throw new LlmsrvError("bad_request", "raw mode does not support template, system, or context");
  }
  if (suffix) requireCapability(model, "insert");
  if (prompt === "") {
    const started = process.hrtime.bigint();
    if (keepAliveMs === 0) {
      await ctx.deps.scheduler.stop(model);
      return ctx.json(200, {
        model: model.display,
        created_at: nowTimestamp(),
        response: "",
        done: true,
        done_reason: "unload",
      });
    }
    const loadNs = await loadOnly(ctx.deps, model, body.options, keepAliveMs, ctx.signal);
    const total = Number(process.hrtime.bigint() - started);
    const done = {
      model: model.display,
      created_at: nowTimestamp(),
      response: "",
      done: true,
      done_reason: "load",
      total_duration: total,
      load_duration: loadNs,
    };
    return ctx.json(200, done);
  }
  const rendered = buildGeneratePrompt(model, { prompt, system, template, suffix, raw });
  const out = stream ? new NdjsonWriter(ctx.res) : undefined;
  const job = {
    model,
    prompt: rendered,
    prefixTokens: context,
    options: body.options,
    keepAliveMs,
    format,
    signal: ctx.signal,
    onText: (text: string) =>
      out?.write({ model: model.display, created_at: nowTimestamp(), response: text, done: false }),
  };
  if (!out) {
    const outcome = await runCompletion(ctx.deps, job);
    return ctx.json(200, finalBody(model.display, outcome.result.text, outcome, !raw));
  }
  try {
    const outcome = await runCompletion(ctx.deps, job);
    out.write(finalBody(model.display, "", outcome, !raw));
  } catch (e) {
    if (!out.headersSent) throw e;
    out.writeError(e);
  }
  out.end();
}
