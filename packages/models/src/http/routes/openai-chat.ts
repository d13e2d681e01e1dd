// `POST /v1/chat/completions`: OpenAI chat over the native chat path, streamed as SSE.
import {
  completionId,
  finishReason,
  nativeFormat,
  nativeMessages,
  nativeOptions,
  nativeThink,
  openaiToolCalls,
  SYSTEM_FINGERPRINT,
  usage,
} from "../../openai/translate.js";
import { type ChatInput, checkChatCapabilities, parseTools, runChat } from "../../service/chat.js";
import { resolveThink } from "../../service/thinking.js";
import { requireModelName } from "../../store/model-name.js";
import { optionalBool } from "../request-body.js";
import type { RequestContext } from "../router.js";
import { SseWriter } from "../sse.js";

/** Fields every response object and chunk of one completion shares. */
interface ResponseBase {
  id: string;
  created: number;
  model: string;
  system_fingerprint: string;
}

async function respondOnce(
  ctx: RequestContext,
  input: ChatInput,
  base: ResponseBase,
): Promise<void> {
  const chat = await runChat(ctx.deps, input);
  const r = chat.outcome.result;
  const message = {
    role: "assistant",
    content: chat.content,
    ...(chat.thinking !== "" ? { reasoning: chat.thinking } : {}),
    ...(chat.toolCalls.length > 0 ? { tool_calls: openaiToolCalls(chat.toolCalls) } : {}),
  };
  ctx.json(200, {
    ...base,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message,
        finish_reason: finishReason(r.doneReason, chat.toolCalls),
        logprobs: null,
      },
    ],
    usage: usage(r.promptEvalCount, r.evalCount),
  });
}

/** SSE: role with the first delta, content deltas, tool calls, a finish chunk, usage, [DONE]. */
async function respondStreaming(
  ctx: RequestContext,
  input: ChatInput,
  base: ResponseBase,
  includeUsage: boolean,
): Promise<void> {
  const out = new SseWriter(ctx.res);
  const chunk = (delta: unknown, finish: string | null) => ({
    ...base,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  let first = true;
  try {
    const chat = await runChat(ctx.deps, input, (d) => {
      const delta = {
        ...(first ? { role: "assistant" } : {}),
        content: d.content,
        ...(d.thinking !== "" ? { reasoning: d.thinking } : {}),
        ...(d.toolCalls.length > 0 ? { tool_calls: openaiToolCalls(d.toolCalls) } : {}),
      };
      out.write(chunk(delta, null));
      first = false;
    });
    const r = chat.outcome.result;
    out.write(chunk({}, finishReason(r.doneReason, chat.toolCalls)));
    if (includeUsage)
      out.write({
        ...base,
        object: "chat.completion.chunk",
        choices: [],
        usage: usage(r.promptEvalCount, r.evalCount),
      });
  } catch (e) {
    if (!out.headersSent) throw e;
    out.writeError(e);
  }
  out.done();
}

/** `POST /v1/chat/completions`: OpenAI chat over the native chat path, SSE when `stream`. */
export async function openaiChatHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  requireModelName(body.model);
  const model = await ctx.deps.store.get(body.model as string);
  const input: ChatInput = {
    model,
    messages: nativeMessages(body.messages),
    tools: parseTools(body.tools),
    format: nativeFormat(body.response_format),
    options: nativeOptions(body),
    keepAliveMs: undefined,
    think: resolveThink(model, nativeThink(body), body.model as string),
    signal: ctx.signal,
  };
  checkChatCapabilities(input);
  const stream = optionalBool(body, "stream") ?? false;
  const includeUsage =
    (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  const base = {
    id: completionId("chatcmpl"),
    created: Math.floor(Date.now() / 1000),
    model: body.model as string,
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
  if (stream) await respondStreaming(ctx, input, base, includeUsage);
  else await respondOnce(ctx, input, base);
}
