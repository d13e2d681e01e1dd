// Checks a template before it is stored: it parses and renders a sample conversation.
import { LlmsrvError } from "../errors.js";
import { renderChatTemplate, type TemplateMessage } from "./chat-template.js";
import { parseGoTemplate } from "./go-template.js";
import { OllamaTemplate } from "./ollama-template.js";
import {
  DEFAULT_TEMPLATE_LIMITS,
  JINJA_TEMPLATE_LIMITS,
  TemplateLimitError,
  type TemplateLimits,
} from "./template-budget.js";
import { checkTemplateFields } from "./template-fields-check.js";

/** A short conversation with every kind of turn, to try templates on before accepting them. */
const SAMPLE: readonly TemplateMessage[] = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "What is the weather in Paris?" },
  {
    role: "assistant",
    content: "",
    tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris" } } }],
  },
  { role: "tool", content: "18 degrees", tool_name: "get_weather" },
  { role: "assistant", content: "It is 18 degrees." },
  { role: "user", content: "Thanks!" },
];

const SAMPLE_TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "current weather",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];

/**
 * A template that needs a tenth of the limits for six messages would pass them on a real
 * conversation: it is refused at create rather than failing on every use.
 */
function sampleLimits(limits: TemplateLimits): TemplateLimits {
  return { ...limits, maxSteps: limits.maxSteps / 10, maxTextChars: limits.maxTextChars / 10 };
}

/** Renders `render`, keeping only limit errors: other failures may depend on real data. */
function tryRender(render: () => unknown): void {
  try {
    render();
  } catch (e) {
    if (e instanceof TemplateLimitError) throw e;
  }
}

/**
 * Checks a Modelfile TEMPLATE (Go) when a model is created: it must parse, call only known
 * functions and read only fields Ollama's template data has (400 naming the line
 * otherwise), and render the sample conversation, as chat and as generate, within a tenth
 * of the limits.
 */
export function checkGoTemplate(source: string): void {
  const limits = sampleLimits(DEFAULT_TEMPLATE_LIMITS);
  let template: OllamaTemplate;
  try {
    checkTemplateFields(parseGoTemplate(source));
    template = OllamaTemplate.parse(source);
  } catch (e) {
    if (e instanceof LlmsrvError) throw new LlmsrvError("bad_request", e.message);
    throw e;
  }
  tryRender(() => template.execute({ messages: SAMPLE, tools: SAMPLE_TOOLS, think: true }, limits));
  const last = SAMPLE[SAMPLE.length - 1]?.content ?? "";
  tryRender(() =>
    template.execute(
      { messages: [SAMPLE[0] as TemplateMessage, { role: "user", content: last }] },
      limits,
    ),
  );
}

/**
 * Checks a GGUF chat template (Jinja) when a model is created: it must render the sample
 * conversation within a tenth of the limits. Other errors are left to chat time, where they
 * are 500s, since a model with an unsupported template still serves generate and embed.
 */
export function checkChatTemplate(source: string): void {
  const limits = sampleLimits(JINJA_TEMPLATE_LIMITS);
  tryRender(() => renderChatTemplate(source, SAMPLE, { tools: SAMPLE_TOOLS }, limits));
}
