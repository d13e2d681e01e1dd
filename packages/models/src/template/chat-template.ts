// Renders a GGUF's Jinja chat template (`tokenizer.chat_template`).
import { Template } from "@huggingface/jinja";
import { LlmsrvError, messageOf } from "../errors.js";
import { renderBounded } from "./bounded-jinja.js";
import {
  JINJA_TEMPLATE_LIMITS,
  TemplateLimitError,
  type TemplateLimits,
} from "./template-budget.js";

/** A message as templates see it. */
export interface TemplateMessage {
  role: string;
  content: string;
  tool_calls?: Array<{ function: { name: string; arguments: unknown } }>;
  tool_name?: string;
  /** (i9-text) The reasoning of an earlier assistant message. */
  thinking?: string;
}

const cache = new Map<string, Template>();

/** Chat templates are kilobytes; a megabyte is refused before the library lexes it. */
const MAX_SOURCE_CHARS = 1024 * 1024;
/**
 * The library's preprocessing scans every white space run once per position in it (time
 * quadratic in the run: 20,000 spaces take a third of a second), so long runs are refused.
 */
const MAX_SPACE_RUN = 1024;

/** Refuses sources the library would take too long to parse (400, like the render limits). */
function checkSource(source: string): void {
  if (source.length > MAX_SOURCE_CHARS)
    throw new TemplateLimitError(`chat template longer than ${MAX_SOURCE_CHARS} characters`);
  for (const run of source.matchAll(/\s+/g))
    if (run[0].length > MAX_SPACE_RUN)
      throw new TemplateLimitError(
        `chat template has a run of more than ${MAX_SPACE_RUN} white space characters`,
      );
}

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
      checkSource(source);
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
