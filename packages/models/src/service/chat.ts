// A native chat turn: messages and tools checked, the prompt built, the answer parsed.
import type { ToolCall, ToolDefinition } from "../api/types.js";
import { LlmsrvError } from "../errors.js";
import { checkMediaForModel, decodeImagesField } from "../media/media-input.js";
import type { OutputFormat } from "../runtime/model-runner.js";
import type { StoredModel } from "../store/stored-model.js";
import { buildChatPrompt } from "../template/build-prompt.js";
import type { TemplateMessage } from "../template/chat-template.js";
import { IMAGE_TOKEN_ESTIMATE, tagImages } from "../template/image-tags.js";
import { type ChatDelta, ChatOutput } from "./chat-output.js";
import { fitChatMessages, type TokenCounter } from "./chat-window.js";
import { type CompletionOutcome, runCompletion } from "./completion.js";
import type { ServerDeps } from "./deps.js";
import { requireCapability } from "./request-fields.js";
import { type ThinkValue, thinkingParserFor } from "./thinking.js";

/** A native chat message after validation: its images (and audio) decoded from base64. */
export interface ChatMessage extends TemplateMessage {
  images?: Uint8Array[];
}

/** A chat request after parsing (native or translated from OpenAI). */
export interface ChatInput {
  model: StoredModel;
  messages: ChatMessage[];
  tools: ToolDefinition[];
  format: OutputFormat | undefined;
  options: unknown;
  keepAliveMs: number | undefined;
  /** The think flag after Ollama's default (thinking models think unless told not to). */
  think?: ThinkValue;
  /** Old messages that do not fit the window are dropped (default) or kept (false). */
  truncate?: boolean;
  signal: AbortSignal;
}

/** A finished chat turn. */
export interface ChatOutcome {
  content: string;
  /** The model's reasoning, split from the answer (empty unless thinking). */
  thinking: string;
  toolCalls: ToolCall[];
  outcome: CompletionOutcome;
}

/** Validates `messages`: an array of `{role, content, images?, tool_calls?, tool_name?}`. */
export function parseMessages(value: unknown): ChatMessage[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new LlmsrvError("bad_request", `field "messages" must be an array`);
  return value.map((m, i) => {
    if (typeof m !== "object" || m === null)
      throw new LlmsrvError("bad_request", `messages[${i}] must be an object`);
    const { role, content, images, tool_calls, tool_name } = m as Record<string, unknown>;
    if (typeof role !== "string" || role === "") {
      throw new LlmsrvError("bad_request", `messages[${i}].role must be a non-empty string`);
    }
    if (content !== undefined && content !== null && typeof content !== "string") {
      throw new LlmsrvError("bad_request", `messages[${i}].content must be a string`);
    }
    const msg: ChatMessage = { role, content: (content as string | undefined) ?? "" };
    const { thinking } = m as Record<string, unknown>;
    if (typeof thinking === "string" && thinking !== "") msg.thinking = thinking;
    const media = decodeImagesField(images, `messages[${i}].images`);
    if (media) msg.images = media;
    if (Array.isArray(tool_calls)) msg.tool_calls = tool_calls as ChatMessage["tool_calls"];
    if (typeof tool_name === "string") msg.tool_name = tool_name;
    return msg;
  });
}

/** Validates `tools`: an array of `{type: "function", function: {name, ...}}`. */
export function parseTools(value: unknown): ToolDefinition[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new LlmsrvError("bad_request", `field "tools" must be an array`);
  for (const [i, t] of value.entries()) {
    const name = (t as ToolDefinition | null)?.function?.name;
    if (typeof name !== "string" || name === "") {
      throw new LlmsrvError("bad_request", `tools[${i}].function.name must be a non-empty string`);
    }
  }
  return value as ToolDefinition[];
}

/**
 * Checks capabilities the request needs: completion, tools when given, vision for images
 * and audio for audio clips (told apart by content; media-input.ts).
 */
export function checkChatCapabilities(
  input: Pick<ChatInput, "model" | "messages" | "tools">,
): void {
  requireCapability(input.model, "completion");
  if (input.tools.length > 0) requireCapability(input.model, "tools");
  const media = input.messages.flatMap((m, i) =>
    (m.images ?? []).map((bytes, j) => ({ bytes, label: `messages[${i}].images[${j}]` })),
  );
  checkMediaForModel(input.model, media);
}

/**
 * Runs one chat turn. The answer streams through `onDelta` as it is generated: reasoning
 * split from content when thinking, tool calls once each is parsed.
 */
export async function runChat(
  deps: ServerDeps,
  input: ChatInput,
  onDelta?: (delta: ChatDelta) => void,
): Promise<ChatOutcome> {
  const truncate = input.truncate ?? true;
  // Images count toward the window only where a projector will encode them, as in Ollama.
  const hasProjector = input.model.projectorPath !== undefined;
  const prompt = async (counter: TokenCounter) => {
    const fitted = await fitChatMessages(
      input.messages,
      (messages) =>
        buildChatPrompt(input.model, tagImages(messages).messages, input.tools, {
          think: input.think,
        }),
      counter,
      truncate,
      (m) => (hasProjector ? (m.images?.length ?? 0) * IMAGE_TOKEN_ESTIMATE : 0),
    );
    output.parser = thinkingParserFor(input.model, input.think, fitted.prompt);
    // The images of the messages kept, numbered as their tags in the prompt.
    return { text: fitted.prompt, media: tagImages(fitted.messages).media };
  };
  const output = new ChatOutput(undefined, input.tools, onDelta);
  const outcome = await runCompletion(deps, {
    model: input.model,
    prompt,
    truncate,
    options: input.options,
    keepAliveMs: input.keepAliveMs,
    format: input.format,
    signal: input.signal,
    onText: (text) => output.push(text),
  });
  output.finish();
  return {
    content: output.content,
    thinking: output.thinking,
    toolCalls: output.toolCalls,
    outcome,
  };
}
