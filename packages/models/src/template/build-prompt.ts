// Builds the prompt of generate and chat from a model's templates and a request.
import type { ToolDefinition } from "../api/types.js";
import { renderChatTemplate, type TemplateMessage } from "./chat-template.js";
import { imageTag } from "./image-tags.js";
import { OllamaTemplate, type PromptMessage } from "./ollama-template.js";

/** What prompt building reads of a stored model (its Modelfile layers and GGUF template). */
export interface PromptModel {
  system: string | undefined;
  template: string | undefined;
  messages: readonly PromptMessage[];
  facts: { chatTemplate: string | undefined };
}

/** Inputs of `/api/generate` that shape the prompt. */
export interface GeneratePromptInput {
  prompt: string;
  system?: string;
  template?: string;
  suffix?: string;
  raw: boolean;
  /** Text of a previous exchange (detokenized `context`), prepended. */
  previous?: string;
  /** The request's `think` (`true`/`false` or a level), for `.Think`/`.ThinkLevel`/`.IsThinkSet`. */
  think?: boolean | string;
  /** Images (and audio clips) sent with the prompt: tagged `[img-0]`, `[img-1]`... before it. */
  imageCount?: number;
}

/**
 * Renders the prompt of `/api/generate`. Raw mode sends the prompt untouched. Otherwise the
 * request's or the Modelfile's Go template renders, as in Ollama, the system message, the
 * Modelfile MESSAGEs (unless `context` continues an exchange) and the prompt (or only the
 * prompt and suffix when a suffix is given); without one, a model with a GGUF chat template
 * gets the prompt as a single user turn; a model without any template gets the system text
 * (if any), a blank line, and the prompt.
 *
 * Images are tagged as Ollama tags them: one user message `[img-N]` per image before the
 * prompt's, which the template's merging of consecutive user messages joins to the prompt
 * with blank lines; the other paths join them the same way. Raw mode and a template given
 * only the prompt and suffix place no tags (the prompt may carry its own).
 */
export function buildGeneratePrompt(model: PromptModel, input: GeneratePromptInput): string {
  const previous = input.previous ?? "";
  if (input.raw) return previous + input.prompt;
  const system = input.system || model.system;
  const goTemplate = input.template || model.template;
  const tags = Array.from({ length: input.imageCount ?? 0 }, (_, i) => imageTag(i));
  if (goTemplate !== undefined) {
    const messages: PromptMessage[] = [
      ...(system ? [{ role: "system", content: system }] : []),
      ...(input.previous === undefined ? model.messages : []),
      ...tags.map((tag) => ({ role: "user", content: tag })),
      { role: "user", content: input.prompt },
    ];
    const values = { messages, prompt: input.prompt, suffix: input.suffix, think: input.think };
    return previous + OllamaTemplate.parse(goTemplate).execute(values);
  }
  if (model.facts.chatTemplate) {
    const messages: TemplateMessage[] = [];
    if (system) messages.push({ role: "system", content: system });
    messages.push({ role: "user", content: [...tags, input.prompt].join("\n\n") });
    return previous + renderChatTemplate(model.facts.chatTemplate, messages);
  }
  return previous + (system ? `${system}\n\n` : "") + [...tags, input.prompt].join("\n\n");
}

/**
 * The conversation a chat request sends: Modelfile MESSAGEs first, and the Modelfile
 * SYSTEM unless the request starts with its own system message.
 */
export function conversationFor(
  model: PromptModel,
  messages: readonly PromptMessage[],
): PromptMessage[] {
  const out: PromptMessage[] = [];
  if (model.system && messages[0]?.role !== "system")
    out.push({ role: "system", content: model.system });
  out.push(...model.messages, ...messages);
  return out;
}

/** Chat inputs besides the messages that reach the template. */
export interface ChatPromptOptions {
  /** The request's `think` (`true`/`false` or a level). */
  think?: boolean | string;
}

/**
 * Renders a chat prompt: the Modelfile TEMPLATE as Ollama executes it (the whole
 * conversation through `.Messages`, or one prompt/response rendering per exchange for
 * templates without it), else the GGUF chat template, else a plain "role: content"
 * transcript ending in "assistant:".
 */
export function buildChatPrompt(
  model: PromptModel,
  messages: readonly PromptMessage[],
  tools: readonly ToolDefinition[] = [],
  options: ChatPromptOptions = {},
): string {
  const conversation = conversationFor(model, messages);
  if (model.template !== undefined)
    return OllamaTemplate.parse(model.template).execute({
      messages: conversation,
      tools,
      think: options.think,
    });
  if (model.facts.chatTemplate)
    return renderChatTemplate(model.facts.chatTemplate, conversation, { tools: [...tools] });
  return `${conversation.map((m) => `${m.role}: ${m.content}`).join("\n")}\nassistant:`;
}
