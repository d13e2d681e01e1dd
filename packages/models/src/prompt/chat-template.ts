import { Template } from "@huggingface/jinja";
import { LlmsrvError, messageOf } from "../errors.js";
import { renderBounded } from "./bounded-jinja.js";
import { JINJA_TEMPLATE_LIMITS, type TemplateLimits } from "./template-budget.js";

/** A message as templates see it. */
export interface TemplateMessage {
  role: string;
  content: string;
  tool_calls?: Array<{ function: { name: string; arguments: unknown } }>;
  tool_name?: string;
}

const cache = new Map<string, Template>();

/**
 * Renders a GGUF `tokenizer.chat_template` (Jinja) with the conversation, the tools and
 * `add_generation_prompt`, the way Hugging Face tokenizers do, within `limits` (a 400 naming
 * the limit past one). Other template errors are 500s, as in Ollama.
 */
export function renderChatTemplate(
  source: string,
  messages: readonly TemplateMessage[],
  options: { tools?: unknown[]; bosToken?: string; eosToken?: string } = {},
  limits: TemplateLimits = JINJA_TEMPLATE_LIMITS,
): string {
  let template = cache.get(source);
  try {
    if (!template) {
      template = new Template(source);
      cache.set(source, template);
    }
    const items = {
      messages,
      tools: options.tools && options.tools.length > 0 ? options.tools : undefined,
      add_generation_prompt: true,
      bos_token: options.bosToken ?? "",
      eos_token: options.eosToken ?? "",
    };
    return renderBounded(template, items, limits);
  } catch (e) {
    if (e instanceof LlmsrvError) throw e;
    throw new LlmsrvError("internal", `chat template: ${messageOf(e)}`);
  }
}
