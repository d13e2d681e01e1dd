// The options a request (`options`) or a Modelfile PARAMETER may set, with their JSON types.

/** The JSON type an option takes: an integer, a number, or a string or list of strings. */
export type OptionKind = "int" | "float" | "strings";

/**
 * Known options and their JSON types. Unknown request options are ignored, as Ollama does;
 * the Modelfile parser uses the same table for PARAMETER.
 */
export const OPTION_KINDS: Readonly<Record<string, OptionKind>> = Object.freeze({
  temperature: "float",
  seed: "int",
  top_k: "int",
  top_p: "float",
  min_p: "float",
  typical_p: "float",
  num_ctx: "int",
  num_thread: "int",
  num_predict: "int",
  num_keep: "int",
  num_batch: "int",
  num_gpu: "int",
  repeat_penalty: "float",
  repeat_last_n: "int",
  presence_penalty: "float",
  frequency_penalty: "float",
  stop: "strings",
});
