// Wire types of the native API: the bodies the server's routes write and the CLI reads.

/** A tool call in Ollama's shape: arguments are an object, not a JSON string. */
export interface ToolCall {
  function: { index?: number; name: string; arguments: Record<string, unknown> };
}

/** Tool definitions as requests send them. */
export interface ToolDefinition {
  type?: string;
  function?: { name?: string; description?: string; parameters?: unknown };
}

/** Capabilities a model may advertise (`/api/show`), per the spec plus `embedding`/`insert`. */
export type Capability =
  | "completion"
  | "vision"
  | "audio"
  | "tools"
  | "thinking"
  | "insert"
  | "embedding";

/** The `details` object of listings. */
export interface ModelDetails {
  parent_model: string;
  format: string;
  family: string;
  families: string[];
  parameter_size: string;
  quantization_level: string;
}

/** One model of `GET /api/tags`. */
export interface ModelEntry {
  name: string;
  model: string;
  modified_at: string;
  size: number;
  digest: string;
  details: ModelDetails;
}

/** `GET /api/tags`: stored models, newest first. */
export interface TagsResponse {
  models: ModelEntry[];
}

/** The `information` block of `/api/show`. */
export interface ShowInformation {
  architecture: string;
  parameters: string;
  context_length: number | null;
  embedding_length: number | null;
  quantization: string;
  requires: string;
  capabilities: Capability[];
  default_parameters: Record<string, unknown>;
  license: string;
}

/** `POST /api/show`: model information, template, parameters, Modelfile. */
export interface ShowResponse {
  license: string;
  modelfile: string;
  parameters: string;
  template: string;
  system: string;
  details: ModelDetails;
  model_info: Record<string, unknown>;
  /** The projector GGUF's metadata (clip.* keys, general.*), only for a model with one. */
  projector_info?: Record<string, unknown>;
  capabilities: Capability[];
  modified_at: string;
  messages: Array<{ role: string; content: string }>;
  information: ShowInformation;
}

/** One loaded model of `GET /api/ps` (`active` and `queued` are beyond Ollama). */
export interface RunningModel {
  name: string;
  model: string;
  size: number;
  digest: string;
  details: ModelDetails;
  expires_at: string;
  size_vram: number;
  context_length: number;
  active: number;
  queued: number;
}

/** `GET /api/ps`. */
export interface PsResponse {
  models: RunningModel[];
}

/** One progress line of a pull, push or create, in Ollama's shape. */
export interface TransferProgress {
  status: string;
  digest?: string;
  total?: number;
  completed?: number;
}

/** Timings (nanoseconds) and token counts that end an answer. */
export interface ResponseMetrics {
  total_duration?: number;
  load_duration?: number;
  prompt_eval_count?: number;
  prompt_eval_duration?: number;
  eval_count?: number;
  eval_duration?: number;
}

/** An assistant message of `/api/chat`: `thinking` and `tool_calls` only when present. */
export interface AssistantMessage {
  role: string;
  content: string;
  thinking?: string;
  tool_calls?: ToolCall[];
}

/** One object of a `/api/chat` answer; the last (`done`) carries the metrics. */
export interface ChatResponse extends ResponseMetrics {
  model: string;
  created_at: string;
  message: AssistantMessage;
  done: boolean;
  done_reason?: string;
}

/** `GET /api/version`. */
export interface VersionResponse {
  version: string;
}
