import type { StoredModel } from "../store/model-store.js";
import { renderChatTemplate, type TemplateMessage } from "./chat-template.js";
import { renderGoTemplate, templateUsesMessages } from "./go-template.js";

/** Inputs of `/api/generate` that shape the prompt. */
export interface GeneratePromptInput {
  prompt: string;
  system?: string;
  template?: string;
  suffix?: string;
  raw: boolean;
  /** Text of a previous exchange (detokenized `context`), prepended. */
  previous?: string;
}

/**
 * Renders the prompt of `/api/generate`. Raw mode sends the prompt untouched. Otherwise the
 * request's or the Modelfile's Go template is used; without one, a model with a GGUF chat
 * template gets the prompt as a single user turn; a model without any template gets
 * the system text (if any), a blank line, and the prompt.
 */
export function buildGeneratePrompt(
  model: StoredModel,
  input: GeneratePromptInput,
  // (i9-text) extra Go template data from the caller: .Think, .ThinkLevel, .IsThinkSet.
  extra: Record<string, unknown> = {},
): string {
  const previous = input.previous ?? "";
  if (input.raw) return previous + input.prompt;
  const system = input.system ?? model.system;
  const goTemplate = input.template ?? model.template;
  if (goTemplate !== undefined) {
    const messages = [
      ...(system ? [{ role: "system", content: system }] : []),
      { role: "user", content: input.prompt },
    ];
    const data = {
      System: system ?? "",
      Prompt: input.prompt,
      Response: "",
      Suffix: input.suffix ?? "",
      Messages: messages.map(goMessage),
      ...extra,
    };
    return previous + renderGoTemplate(goTemplate, data);
  }
  if (model.facts.chatTemplate) {
    const messages: TemplateMessage[] = [];
    if (system) messages.push({ role: "system", content: system });
    messages.push({ role: "user", content: input.prompt });
    return previous + renderChatTemplate(model.facts.chatTemplate, messages);
  }
  return previous + (system ? `${system}\n\n` : "") + input.prompt;
}

/** A message with the field names Go templates use (`.Role`, `.ToolCalls[].Function.Name`). */
export function goMessage(m: TemplateMessage): Record<string, unknown> {
  const calls = m.tool_calls?.map((c) => ({
    Function: { Name: c.function.name, Arguments: c.function.arguments },
  }));
  return {
    Role: m.role,
    Content: m.content,
    ToolCalls: calls,
    ToolName: m.tool_name,
    Thinking: m.thinking ?? "", // (i9-text) a message's reasoning
  };
}

/**
 * The conversation a chat request sends: Modelfile MESSAGEs first, and the Modelfile
 * SYSTEM unless the request starts with its own system message.
 */
export function conversationFor(
  model: StoredModel,
  messages: readonly TemplateMessage[],
): TemplateMessage[] {
  const out: TemplateMessage[] = [];
  if (model.system && messages[0]?.role !== "system")
    out.push({ role: "system", content: model.system });
  out.push(...model.messages, ...messages);
  return out;
}

/**
 * Renders a chat prompt: the Modelfile TEMPLATE when it iterates `.Messages`, else the
 * GGUF chat template, else a plain "role: content" transcript ending in "assistant:".
 */
export function buildChatPrompt(
  model: StoredModel,
  messages: readonly TemplateMessage[],
  tools: unknown[] = [],
  // (i9-text) extra Go template data from the caller: .Think, .ThinkLevel, .IsThinkSet.
  extra: Record<string, unknown> = {},
): string {
  const conversation = conversationFor(model, messages);
  if (model.template !== undefined && templateUsesMessages(model.template)) {
    const system = conversation.find((m) => m.role === "system")?.content ?? "";
    return renderGoTemplate(model.template, {
      System: system,
      Messages: conversation.map(goMessage),
      Tools: tools,
      ...extra,
    });
  }
  if (model.template !== undefined) {
    const system = conversation
      .filter((m) => m.role === "system")
      .map((m) => m.content)
      .join("\n");
    const lastUser = [...conversation].reverse().find((m) => m.role === "user")?.content ?? "";
    return renderGoTemplate(model.template, {
      System: system,
      Prompt: lastUser,
      Response: "",
      Tools: tools,
      ...extra,
    });
  }
  if (model.facts.chatTemplate)
    return renderChatTemplate(model.facts.chatTemplate, conversation, { tools });
  return `${conversation.map((m) => `${m.role}: ${m.content}`).join("\n")}\nassistant:`;
}
