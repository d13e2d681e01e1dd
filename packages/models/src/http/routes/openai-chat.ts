import { LlmsrvError } from "../../errors.js";
import {
  completionId,
  finishReason,
  nativeFormat,
  nativeMessages,
  nativeOptions,
  openaiToolCalls,
  SYSTEM_FINGERPRINT,
  usage,
} from "../../openai/translate.js";
import { checkChatCapabilities, parseTools, runChat } from "../../service/chat.js";
import { requireModelName } from "../../store/model-name.js";
import { optionalBool } from "../request-body.js";
import type { RequestContext } from "../router.js";
import { SseWriter } from "../sse.js";

/** `POST /v1/chat/completions`: OpenAI chat over the native chat path, SSE when `stream`. */
export async function openaiChatHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  requireModelName(body.model);
  const model = await ctx.deps.store.get(body.model as string);
  const messages = nativeMessages(body.messages);
  const tools = parseTools(body.tools);
  const stream = optionalBool(body, "stream") ?? false;
  const includeUsage =
    (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  const input = {
    model,
    messages,
    tools,
    format: nativeFormat(body.response_format),
    options: nativeOptions(body),
    keepAliveMs: undefined,
    signal: ctx.signal,
  };
  checkChatCapabilities(input);
  const id = completionId("chatcmpl");
  const created = Math.floor(Date.now() / 1000);
  const base = { id, created, model: model.display, system_fingerprint: SYSTEM_FINGERPRINT };
  if (!stream) {
    const chat = await runChat(ctx.deps, input);
    const r = chat.outcome.result;
    const message = {
      role: "assistant",
      content: chat.content,
      ...(chat.toolCalls.length > 0 ? { tool_calls: openaiToolCalls(chat.toolCalls) } : {}),
    };
    return ctx.json(200, {
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
  const out = new SseWriter(ctx.res);
  const chunk = (delta: unknown, finish: string | null) => ({
    ...base,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  let first = true;
  try {
    const chat = await runChat(ctx.deps, input, (text) => {
      out.write(chunk(first ? { role: "assistant", content: text } : { content: text }, null));
      first = false;
    });
    if (chat.toolCalls.length > 0)
      out.write(chunk({ role: "assistant", tool_calls: openaiToolCalls(chat.toolCalls) }, null));
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
    out.writeError(e instanceof Error ? e : new LlmsrvError("internal", String(e)));
  }
  out.done();
}
