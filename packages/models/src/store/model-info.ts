// Facts derived from a GGUF header: architecture, size, quantization, capabilities.
import type { Capability, ModelDetails } from "../api/types.js";
import { FILE_TYPE_NAMES, GGML_TYPE_NAMES } from "../gguf/gguf-format.js";
import type { GgufInfo, GgufValue } from "../gguf/gguf-reader.js";
import { type ModelShape, shapeFromGguf } from "../gguf/model-shape.js";
import { templateCapabilities } from "../template/ollama-template.js";

/** Facts derived from a GGUF header, used by listings, show and the runtime. */
export interface ModelFacts {
  architecture: string;
  parameterCount: number;
  contextLength: number | undefined;
  embeddingLength: number | undefined;
  quantization: string;
  chatTemplate: string | undefined;
  capabilities: Capability[];
  details: ModelDetails;
  /** Metadata minus general.name and the chat template; long arrays shown as []. */
  modelInfo: Record<string, unknown>;
  /** Dimensions that size a context's memory; undefined when the metadata lacks them. */
  shape: ModelShape | undefined;
}

/** Ollama-style parameter size: "3.2B", "137M", "260K". */
export function formatParameterCount(n: number): string {
  const fmt = (v: number, unit: string) =>
    `${v >= 100 ? Math.round(v) : Number(v.toFixed(1))}${unit}`;
  if (n >= 1e9) return fmt(n / 1e9, "B");
  if (n >= 1e6) return fmt(n / 1e6, "M");
  if (n >= 1e3) return fmt(n / 1e3, "K");
  return String(n);
}

function numberOf(v: GgufValue | undefined): number | undefined {
  return typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : undefined;
}

function quantizationOf(info: GgufInfo): string {
  const fileType = numberOf(info.metadata.get("general.file_type"));
  if (fileType !== undefined && FILE_TYPE_NAMES[fileType]) return FILE_TYPE_NAMES[fileType];
  const counts = new Map<number, number>();
  for (const t of info.tensors) {
    const n = t.dims.reduce((a, b) => a * b, 1);
    counts.set(t.type, (counts.get(t.type) ?? 0) + n);
  }
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return top ? (GGML_TYPE_NAMES[top[0]] ?? `type ${top[0]}`) : "unknown";
}

function capabilitiesOf(info: GgufInfo, arch: string, template: string | undefined): Capability[] {
  const caps: Capability[] = [];
  const poolingType = numberOf(info.metadata.get(`${arch}.pooling_type`));
  const isEmbeddingOnly = arch === "bert" || arch === "nomic-bert" || (poolingType ?? 0) > 0;
  caps.push(isEmbeddingOnly ? "embedding" : "completion");
  if (template && /\btools\b/.test(template)) caps.push("tools");
  if (template && /<think>|enable_thinking|reasoning_content/.test(template)) caps.push("thinking");
  if (
    info.metadata.has("tokenizer.ggml.fim_pre_token_id") ||
    info.metadata.has("tokenizer.ggml.prefix_token_id")
  ) {
    caps.push("insert");
  }
  return caps;
}

/** A metadata value as JSON; an array read only as a summary is null, as in Ollama's non-verbose show. */
function jsonValue(v: GgufValue): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(jsonValue);
  if (typeof v === "object") return null;
  return v;
}

/**
 * `/api/show`'s `model_info`: every metadata key but the name and chat template, plus the
 * parameter count. Arrays the header was read without (long tokenizer arrays) are null.
 */
export function modelInfoOf(info: GgufInfo): Record<string, unknown> {
  const modelInfo: Record<string, unknown> = {};
  for (const [k, v] of info.metadata) {
    if (k === "general.name" || k === "tokenizer.chat_template") continue;
    modelInfo[k] = jsonValue(v);
  }
  modelInfo["general.parameter_count"] = info.parameterCount;
  return modelInfo;
}

/** Derives listing/show facts from a GGUF header. */
export function factsFromGguf(info: GgufInfo): ModelFacts {
  const arch = String(info.metadata.get("general.architecture") ?? "unknown");
  const templateValue = info.metadata.get("tokenizer.chat_template");
  const chatTemplate = typeof templateValue === "string" ? templateValue : undefined;
  const quantization = quantizationOf(info);
  const modelInfo = modelInfoOf(info);
  return {
    architecture: arch,
    parameterCount: info.parameterCount,
    contextLength: numberOf(info.metadata.get(`${arch}.context_length`)),
    embeddingLength: numberOf(info.metadata.get(`${arch}.embedding_length`)),
    quantization,
    chatTemplate,
    capabilities: capabilitiesOf(info, arch, chatTemplate),
    details: {
      parent_model: "",
      format: "gguf",
      family: arch,
      families: [arch],
      parameter_size: formatParameterCount(info.parameterCount),
      quantization_level: quantization,
    },
    modelInfo,
    shape: shapeFromGguf(info),
  };
}

/**
 * A Modelfile TEMPLATE adds capabilities from the names it uses, as in Ollama: `.Tools`
 * gives tools, `.Suffix` insert (fill-in-the-middle), `.Think` thinking.
 */
export function withTemplateCapabilities(
  facts: ModelFacts,
  goTemplate: string | undefined,
): ModelFacts {
  if (!goTemplate) return facts;
  const added = templateCapabilities(goTemplate).filter((c) => !facts.capabilities.includes(c));
  return added.length === 0 ? facts : { ...facts, capabilities: [...facts.capabilities, ...added] };
}
