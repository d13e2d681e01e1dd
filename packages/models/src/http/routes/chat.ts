// `POST /api/chat`: a chat turn, streamed as NDJSON or answered whole.
import type { AssistantMessage, ChatResponse } from "../../api/types.js";
import {
  type ChatOutcome,
  checkChatCapabilities,
  parseMessages,
  parseTools,
  runChat,
} from "../../service/chat.js";
import type { ChatDelta } from "../../service/chat-output.js";
import { loadOnly } from "../../service/completion.js";
import { nowTimestamp, parseFormat, parseKeepAlive } from "../../service/request-fields.js";
import { resolveThink } from "../../service/thinking.js";
import { requireModelName } from "../../store/model-name.js";
import { NdjsonWriter } from "../ndjson.js";
import { optionalBool } from "../request-body.js";
import type { RequestContext } from "../router.js";

/** An assistant message in Ollama's shape: `thinking` and `tool_calls` only when present. */
function assistantMessage(d: ChatDelta): AssistantMessage {
  return {
    role: "assistant",
    content: d.content,
    ...(d.thinking !== "" ? { thinking: d.thinking } : {}),
    ...(d.toolCalls.length > 0 ? { tool_calls: d.toolCalls } : {}),
  };
}

/** The last object: the whole message when not streamed, an empty one ending a stream. */
function finalBody(model: string, message: ChatDelta, chat: ChatOutcome): ChatResponse {
  const r = chat.outcome.result;
  return {
    model,
    created_at: nowTimestamp(),
    message: assistantMessage(message),
    done: true,
    done_reason: r.doneReason,
    total_duration: chat.outcome.totalNs,
    load_duration: chat.outcome.loadNs,
    prompt_eval_count: r.promptEvalCount,
    prompt_eval_duration: r.promptEvalNs,
    eval_count: r.evalCount,
    eval_duration: r.evalNs,
  };
}

/** `POST /api/chat`: a chat turn rendered with the model's template; NDJSON unless `stream: false`. */
export async function chatHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  requireModelName(body.model);
  const model = await ctx.deps.store.get(body.model as string);
  // Answers name the model as the client did (`stories`, not `stories:latest`), as in Ollama.
  const asked = body.model as string;
  const messages = parseMessages(body.messages);
  const tools = parseTools(body.tools);
  const stream = optionalBool(body, "stream") ?? true;
  const keepAliveMs = parseKeepAlive(body.keep_alive);
  const format = parseFormat(body.format);
  checkChatCapabilities({ model, messages, tools });
  const think = resolveThink(model, body.think, asked);
  if (messages.length === 0) {
    const unload = keepAliveMs === 0;
    if (unload) await ctx.deps.scheduler.stop(model);
    else await loadOnly(ctx.deps, model, body.options, keepAliveMs, ctx.signal);
    const message = { role: "assistant", content: "" };
    return ctx.json(200, {
      model: asked,
      created_at: nowTimestamp(),
      message,
      done: true,
      done_reason: unload ? "unload" : "load",
    } satisfies ChatResponse);
  }
  const input = {
    model,
    messages,
    tools,
    format,
    options: body.options,
    keepAliveMs,
    truncate: optionalBool(body, "truncate") ?? true,
    think,
    signal: ctx.signal,
  };
  if (!stream) {
    const chat = await runChat(ctx.deps, input);
    return ctx.json(200, finalBody(asked, chat, chat));
  }
  const out = new NdjsonWriter(ctx.res);
  try {
    const chat = await runChat(ctx.deps, input, (delta) => {
      out.write({
        model: asked,
        created_at: nowTimestamp(),
        message: assistantMessage(delta),
        done: false,
      } satisfies ChatResponse);
    });
    out.write(finalBody(asked, { content: "", thinking: "", toolCalls: [] }, chat));
  } catch (e) {
    if (!out.headersSent) throw e;
    out.writeError(e);
  }
  out.end();
}
