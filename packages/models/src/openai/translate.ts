// Translates OpenAI requests to native ones and native answers to OpenAI's shapes.
import type { ToolCall } from "../api/types.js";
import { LlmsrvError } from "../errors.js";
import { leadingBytes, MEDIA_KIND, type MediaKind, sniffMedia } from "../media/media-kind.js";
import { decodeStrictBase64 } from "../media/strict-base64.js";
import type { DoneReason, OutputFormat } from "../runtime/model-runner.js";
import type { ChatMessage } from "../service/chat.js";
import { parseFormat } from "../service/request-fields.js";

/** Fingerprint reported in OpenAI responses. */
export const SYSTEM_FINGERPRINT = "fp_llmsrv";

let counter = 0;

/** A short unique id with OpenAI's prefix (`chatcmpl-`, `cmpl-`). */
export function completionId(prefix: string): string {
  counter = (counter + 1) % 1_000_000;
  return `${prefix}-${Date.now().toString(36)}${counter}`;
}

/** Data URL prefixes Ollama's OpenAI layer takes for images (a bare `data:;base64,` too). */
const IMAGE_DATA_URL = /^data:(?:image\/(?:jpeg|jpg|png|webp))?;base64,/;

function invalidPart(label: string, what: "image" | "audio", detail: string): LlmsrvError {
  return new LlmsrvError("bad_request", `invalid ${what} input: ${label} ${detail}`);
}

/** Decodes a part's base64 and checks that its content is of the part's kind. */
function partBytes(text: string, label: string, kind: MediaKind): Uint8Array {
  const r = decodeStrictBase64(text);
  if ("error" in r) throw invalidPart(label, kind, `is not valid base64: ${r.error}`);
  const format = sniffMedia(r.bytes);
  if (!format || MEDIA_KIND[format] !== kind) {
    const expected = kind === "image" ? "a PNG, JPEG or WebP image" : "WAV or MP3 audio";
    throw invalidPart(label, kind, `is not ${expected} (${leadingBytes(r.bytes)})`);
  }
  return r.bytes;
}

/** An `image_url` part: a base64 data URL (nothing is downloaded). */
function imageFromUrl(url: unknown, label: string): Uint8Array {
  if (typeof url !== "string")
    throw new LlmsrvError("bad_request", `${label}: image_url must carry a url string`);
  if (/^https?:\/\//i.test(url))
    throw new LlmsrvError(
      "bad_request",
      "image URLs are not currently supported, please use base64 encoded data instead",
    );
  const prefix = IMAGE_DATA_URL.exec(url);
  if (!prefix)
    throw invalidPart(
      label,
      "image",
      "must be a data URL of a PNG, JPEG or WebP image (data:image/png;base64,...)",
    );
  return partBytes(url.slice(prefix[0].length), label, "image");
}

/** An `input_audio` part: `{data: base64, format: "wav" | "mp3"}`. */
function audioFromPart(value: unknown, label: string): Uint8Array {
  const { data, format } = (value ?? {}) as { data?: unknown; format?: unknown };
  if (typeof data !== "string")
    throw new LlmsrvError("bad_request", `${label}: input_audio needs base64 data`);
  if (format !== undefined && format !== "wav" && format !== "mp3")
    throw invalidPart(
      label,
      "audio",
      `has format ${JSON.stringify(format)}; expected "wav" or "mp3"`,
    );
  return partBytes(data, label, "audio");
}

/**
 * A message's content parts as one native message. Ollama makes each part a message of its
 * own and its templates merge consecutive messages of a role with a blank line between
 * them, images tagged where they stood; one message with the parts joined the same way,
 * an `[img]` where each image or clip stood (image-tags.ts puts its tag there), renders
 * alike and keeps chat templates that require alternating roles working.
 */
function contentParts(parts: unknown[], i: number): { text: string; images: Uint8Array[] } {
  const pieces: string[] = [];
  const images: Uint8Array[] = [];
  for (const [k, part] of parts.entries()) {
    const p = part as Record<string, unknown>;
    const label = `messages[${i}].content[${k}]`;
    if (p?.type === "text" && typeof p.text === "string") pieces.push(p.text);
    else if (p?.type === "image_url") {
      const iu = p.image_url as { url?: unknown } | string;
      images.push(imageFromUrl(typeof iu === "string" ? iu : iu?.url, label));
      pieces.push("[img]");
    } else if (p?.type === "input_audio") {
      images.push(audioFromPart(p.input_audio, label));
      pieces.push("[img]");
    } else
      throw new LlmsrvError(
        "bad_request",
        `messages[${i}]: unsupported content part type ${JSON.stringify(p?.type)}`,
      );
  }
  return { text: pieces.join("\n\n"), images };
}

function toolCallsIn(value: unknown): ChatMessage["tool_calls"] {
  if (!Array.isArray(value)) return undefined;
  return value.map((c) => {
    const fn = (c as { function?: { name?: unknown; arguments?: unknown } }).function ?? {};
    let args: unknown = fn.arguments ?? {};
    if (typeof args === "string") {
      try {
        args = JSON.parse(args || "{}");
      } catch {
        throw new LlmsrvError("bad_request", "invalid tool call arguments");
      }
    }
    return { function: { name: String(fn.name ?? ""), arguments: args } };
  });
}

/** Converts OpenAI chat messages to native ones (parts → text + images, tool ids → names). */
export function nativeMessages(value: unknown): ChatMessage[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new LlmsrvError("bad_request", "[] is too short - 'messages'");
  const toolNames = new Map<string, string>();
  return value.map((raw, i) => {
    const m = raw as Record<string, unknown>;
    if (typeof m?.role !== "string")
      throw new LlmsrvError("bad_request", `messages[${i}].role must be a string`);
    const msg: ChatMessage = { role: m.role, content: "" };
    const reasoning = m.reasoning ?? m.reasoning_content;
    if (typeof reasoning === "string" && reasoning !== "") msg.thinking = reasoning;
    if (typeof m.content === "string") msg.content = m.content;
    else if (Array.isArray(m.content)) {
      const { text, images } = contentParts(m.content, i);
      msg.content = text;
      if (images.length > 0) msg.images = images;
    } else if (m.content !== undefined && m.content !== null) {
      throw new LlmsrvError(
        "bad_request",
        `messages[${i}].content must be a string or an array of parts`,
      );
    }
    const calls = toolCallsIn(m.tool_calls);
    if (calls) {
      msg.tool_calls = calls;
      for (const [k, c] of (m.tool_calls as Array<{ id?: string }>).entries()) {
        if (c.id) toolNames.set(c.id, calls[k]?.function.name ?? "");
      }
    }
    if (m.role === "tool") {
      const name =
        typeof m.name === "string" ? m.name : toolNames.get(String(m.tool_call_id ?? ""));
      if (name) msg.tool_name = name;
    }
    return msg;
  });
}

function num(body: Record<string, unknown>, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number") throw new LlmsrvError("bad_request", `${key} must be a number`);
  return v;
}

/** Native options from OpenAI sampling fields (absent temperature and top_p mean 1.0). */
export function nativeOptions(body: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {
    temperature: num(body, "temperature") ?? 1.0,
    top_p: num(body, "top_p") || 1.0,
  };
  const maxTokens = num(body, "max_tokens") ?? num(body, "max_completion_tokens");
  if (maxTokens !== undefined) options.num_predict = maxTokens;
  for (const key of ["seed", "frequency_penalty", "presence_penalty"]) {
    const v = num(body, key);
    if (v !== undefined) options[key] = v;
  }
  const stop = body.stop;
  if (typeof stop === "string") options.stop = [stop];
  else if (Array.isArray(stop)) options.stop = stop;
  else if (stop !== undefined && stop !== null)
    throw new LlmsrvError("bad_request", "stop must be a string or an array of strings");
  return options;
}

/**
 * `reasoning_effort` (or `reasoning.effort`) → native `think`, as Ollama's OpenAI layer
 * maps it: "none" turns thinking off, "low"/"medium"/"high" are levels.
 */
export function nativeThink(body: Record<string, unknown>): unknown {
  const nested = (body.reasoning as { effort?: unknown } | undefined)?.effort;
  const effort = nested ?? body.reasoning_effort;
  if (effort === undefined || effort === null || effort === "") return undefined;
  if (typeof effort !== "string" || !["high", "medium", "low", "none"].includes(effort))
    throw new LlmsrvError(
      "bad_request",
      `invalid reasoning value: '${String(effort)}' (must be "high", "medium", "low", or "none")`,
    );
  return effort === "none" ? false : effort;
}

/** `response_format` → native format. */
export function nativeFormat(value: unknown): OutputFormat | undefined {
  if (value === undefined || value === null) return undefined;
  const rf = value as { type?: unknown; json_schema?: { schema?: unknown } };
  if (rf.type === "text") return undefined;
  if (rf.type === "json_object") return { kind: "json" };
  if (rf.type === "json_schema") return parseFormat(rf.json_schema?.schema ?? "json");
  throw new LlmsrvError("bad_request", `invalid response_format type ${JSON.stringify(rf.type)}`);
}

/** OpenAI finish reason for a native done reason. */
export function finishReason(reason: DoneReason, toolCalls: readonly ToolCall[]): string {
  if (reason === "length") return "length";
  return toolCalls.length > 0 ? "tool_calls" : "stop";
}

/** OpenAI tool calls: arguments as a JSON string, with ids. */
export function openaiToolCalls(calls: readonly ToolCall[]) {
  return calls.map((c, index) => ({
    id: `call_${Date.now().toString(36)}_${index}`,
    index,
    type: "function" as const,
    function: { name: c.function.name, arguments: JSON.stringify(c.function.arguments) },
  }));
}

/** OpenAI usage object. */
export function usage(promptTokens: number, completionTokens: number) {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}
