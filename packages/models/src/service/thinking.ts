// A request's `think`: checked against the model and turned into template values.
import { LlmsrvError } from "../errors.js";
import type { StoredModel } from "../store/stored-model.js";
import { templateVars } from "../template/ollama-template.js";
import { ThinkingParser } from "./thinking-parser.js";

/** A request's `think`: a boolean or a level ("low", "medium", "high"; Ollama's gpt-oss levels). */
export type ThinkValue = boolean | "low" | "medium" | "high" | "max";

const LEVELS = ["low", "medium", "high", "max"];

/** Whether a Go template reads the think flag (`.Think`, `.ThinkLevel`, `.IsThinkSet`). */
export function templateUsesThink(template: string | undefined): boolean {
  return templateVars(template).some((v) => THINK_FIELDS.includes(v));
}

/** The think flag's fields, as the template's lower-cased names list them. */
const THINK_FIELDS = ["think", "thinklevel", "isthinkset"];

/**
 * The tags around reasoning, inferred from a Go template as Ollama infers them: the text
 * right before and right after the `{{ .Thinking }}` that a range over `.Messages` prints
 * (trimmed), e.g. `<think>` and `</think>`. Undefined when the template has none.
 */
export function inferThinkingTags(
  template: string | undefined,
): { opening: string; closing: string } | undefined {
  if (!template || !/range[^}]*\.Messages/.test(template)) return undefined;
  const field = /\{\{-?\s*\.Thinking\s*-?\}\}/.exec(template);
  if (!field) return undefined;
  const before = template.slice(0, field.index);
  const after = template.slice(field.index + field[0].length);
  const opening = before.slice(before.lastIndexOf("}}") + 2).trim();
  const closingEnd = after.indexOf("{{");
  const closing = (closingEnd === -1 ? after : after.slice(0, closingEnd)).trim();
  return opening !== "" && closing !== "" ? { opening, closing } : undefined;
}

/** The tags of a model's reasoning: from its Go template, else `<think>` for GGUF thinkers. */
function tagsFor(model: StoredModel): { opening: string; closing: string } | undefined {
  const inferred = inferThinkingTags(model.template);
  if (inferred) return inferred;
  if (model.template === undefined && model.facts.capabilities.includes("thinking"))
    return { opening: "<think>", closing: "</think>" };
  return undefined;
}

/** Whether the model thinks: its template reads the flag or prints reasoning, or its GGUF does. */
export function supportsThinking(model: StoredModel): boolean {
  if (model.template !== undefined)
    return templateUsesThink(model.template) || inferThinkingTags(model.template) !== undefined;
  return model.facts.capabilities.includes("thinking");
}

/**
 * Validates `think` and applies Ollama's default: a thinking model thinks unless told not
 * to; `think` on any other model is Ollama's 400 `"<model>" does not support thinking`.
 */
export function resolveThink(
  model: StoredModel,
  think: unknown,
  asked: string,
): ThinkValue | undefined {
  if (think !== undefined && think !== null && typeof think !== "boolean") {
    if (!LEVELS.includes(think as string))
      throw new LlmsrvError(
        "bad_request",
        `invalid think value ${JSON.stringify(think)}; expected a boolean or low, medium, high, max`,
      );
  }
  const value = (think ?? undefined) as ThinkValue | undefined;
  if (!supportsThinking(model)) {
    if (value !== undefined && value !== false)
      throw new LlmsrvError("unsupported_capability", `"${asked}" does not support thinking`);
    return value;
  }
  return value ?? true;
}

/** Template data for the think flag (`.Think`, `.ThinkLevel`, `.IsThinkSet`). */
export function thinkTemplateData(think: ThinkValue | undefined): Record<string, unknown> {
  return {
    Think: think !== undefined && think !== false,
    ThinkLevel: typeof think === "string" ? think : "",
    IsThinkSet: think !== undefined,
  };
}

/**
 * A parser splitting the answer when thinking is on and the tags are known; when the prompt
 * already ends with the opening tag, the answer starts inside the reasoning.
 */
export function thinkingParserFor(
  model: StoredModel,
  think: ThinkValue | undefined,
  prompt: string,
): ThinkingParser | undefined {
  if (think === undefined || think === false) return undefined;
  const tags = tagsFor(model);
  if (!tags) return undefined;
  const parser = new ThinkingParser(tags.opening, tags.closing);
  if (prompt.trimEnd().endsWith(tags.opening)) parser.add(tags.opening);
  return parser;
}
