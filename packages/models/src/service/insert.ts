// Fill in the middle (`suffix`): through the template or the model's FIM tokens.
import { LlmsrvError } from "../errors.js";
import type { StoredModel } from "../store/stored-model.js";
import { templateVars } from "../template/ollama-template.js";

/**
 * How a generation with `suffix` (fill in the middle) reaches the model: through a template
 * that places `.Suffix` (Ollama's way), or, for a GGUF with fill-in-the-middle tokens and no
 * such template, as `<prefix> prompt <suffix> suffix <middle>` tokens (llama.cpp's way).
 */
export type InsertMode = "template" | "tokens";

/** Whether a Go template places the suffix (`.Suffix`, as Ollama's insert capability asks). */
export function templateUsesSuffix(template: string | undefined): boolean {
  return templateVars(template).includes("suffix");
}

function hasKey(model: StoredModel, names: readonly string[]): boolean {
  return names.some((n) => typeof model.facts.modelInfo[`tokenizer.ggml.${n}`] === "number");
}

/** Whether the GGUF names prefix and suffix tokens (the middle token is optional). */
export function hasFimTokens(model: StoredModel): boolean {
  return (
    hasKey(model, ["fim_pre_token_id", "prefix_token_id"]) &&
    hasKey(model, ["fim_suf_token_id", "suffix_token_id"])
  );
}

/**
 * The way to insert for this model (and the request's own `template`, if any); Ollama's 400
 * `<model> does not support insert` when there is none.
 */
export function insertModeFor(model: StoredModel, requestTemplate?: string): InsertMode {
  if (templateUsesSuffix(requestTemplate ?? model.template)) return "template";
  if (hasFimTokens(model)) return "tokens";
  throw new LlmsrvError("unsupported_capability", `${model.display} does not support insert`);
}
