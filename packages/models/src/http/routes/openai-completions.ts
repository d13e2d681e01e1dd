// `POST /v1/completions`: OpenAI text completion over the native generate path.
import { LlmsrvError } from "../../errors.js";
import {
  completionId,
  finishReason,
  nativeOptions,
  SYSTEM_FINGERPRINT,
  usage,
} from "../../openai/translate.js";
import { runCompletion } from "../../service/completion.js";
import { insertModeFor } from "../../service/insert.js";
import { requireCapability } from "../../service/request-fields.js";
import { requireModelName } from "../../store/model-name.js";
import { buildGeneratePrompt } from "../../template/build-prompt.js";
import { optionalBool, optionalString } from "../request-body.js";
import type { RequestContext } from "../router.js";
import { SseWriter } from "../sse.js";

/** `POST /v1/completions`: OpenAI text completion over the native generate path. */
export async function openaiCompletionsHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  requireModelName(body.model);
  const model = await ctx.deps.store.get(body.model as string);
  requireCapability(model, "completion");
  if (typeof body.prompt !== "string")
    throw new LlmsrvError("bad_request", "prompt must be a string");
  const suffix = optionalString(body, "suffix");
  const insert = suffix ? insertModeFor(model) : undefined;
  const stream = optionalBool(body, "stream") ?? false;
  const includeUsage =
    (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  const byTokens = insert === "tokens";
  const prompt = byTokens
    ? body.prompt
    : buildGeneratePrompt(model, { prompt: body.prompt, suffix, raw: false });
  const id = completionId("cmpl");
  const base = {
    id,
    object: "text_completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model as string,
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
  const out = stream ? new SseWriter(ctx.res) : undefined;
  const job = {
    model,
    prompt,
    suffix: byTokens ? suffix : undefined,
    options: nativeOptions(body),
    keepAliveMs: undefined,
    signal: ctx.signal,
    onText: (text: string) =>
      out?.write({ ...base, choices: [{ text, index: 0, finish_reason: null }] }),
  };
  if (!out) {
    const { result: r } = await runCompletion(ctx.deps, job);
    return ctx.json(200, {
      ...base,
      choices: [
        { text: r.text, index: 0, finish_reason: finishReason(r.doneReason, []), logprobs: null },
      ],
      usage: usage(r.promptEvalCount, r.evalCount),
    });
  }
  try {
    const { result: r } = await runCompletion(ctx.deps, job);
    out.write({
      ...base,
      choices: [{ text: "", index: 0, finish_reason: finishReason(r.doneReason, []) }],
    });
    if (includeUsage)
      out.write({
        ...base,
        choices: [],
        usage: usage(r.promptEvalCount, r.evalCount),
      });
  } catch (e) {
    if (!out.headersSent) throw e;
    out.writeError(e);
  }
  out.done();
}
