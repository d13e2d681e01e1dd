// The `images` field of chat messages and generate: base64 decoded, then checked by content against the model.
import { LlmsrvError } from "../errors.js";
import type { StoredModel } from "../store/stored-model.js";
import { leadingBytes, MEDIA_KIND, type MediaKind, sniffMedia } from "./media-kind.js";
import { decodeStrictBase64 } from "./strict-base64.js";

/**
 * Decodes an `images` field (`label` names it in errors, e.g. `messages[2].images`): an
 * array of base64 strings, as Ollama takes them. A `data:` URL is refused with a hint:
 * Ollama's native API takes the bare base64 text (only its OpenAI layer takes data URLs).
 */
export function decodeImagesField(value: unknown, label: string): Uint8Array[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((i) => typeof i !== "string")) {
    throw new LlmsrvError("bad_request", `field "${label}" must be an array of base64 strings`);
  }
  return (value as string[]).map((text, i) => {
    const where = `${label}[${i}]`;
    if (/^data:[^,]*,/.test(text))
      throw new LlmsrvError(
        "bad_request",
        `${where} is a data URL; send the base64 data alone, without the "data:...;base64," prefix`,
      );
    const r = decodeStrictBase64(text);
    if ("error" in r)
      throw new LlmsrvError("bad_request", `${where} is not valid base64: ${r.error}`);
    return r.bytes;
  });
}

/** A decoded item and where the request carried it, for error messages. */
export interface LabelledMedia {
  bytes: Uint8Array;
  label: string;
}

/**
 * Checks media against the model, in this order: a model without a projector answers
 * Ollama's `<model> does not support vision` whatever the bytes; then each item must be a
 * PNG, JPEG or WebP image or WAV or MP3 audio (told by content); then an image needs a
 * projector with a vision encoder and audio one with an audio encoder.
 */
export function checkMediaForModel(model: StoredModel, media: readonly LabelledMedia[]): void {
  if (media.length === 0) return;
  const caps = model.facts.capabilities;
  if (!caps.includes("vision") && !caps.includes("audio")) throw unsupported(model, "vision");
  for (const { bytes, label } of media) {
    const kind = mediaKindOf(bytes, label);
    const needed = kind === "image" ? "vision" : "audio";
    if (!caps.includes(needed)) throw unsupported(model, needed);
  }
}

/** The kind of an item by content; 400 naming it when it is no known format. */
export function mediaKindOf(bytes: Uint8Array, label: string): MediaKind {
  const format = sniffMedia(bytes);
  if (!format)
    throw new LlmsrvError(
      "bad_request",
      `${label} is neither a PNG, JPEG or WebP image nor WAV or MP3 audio (${leadingBytes(bytes)})`,
    );
  return MEDIA_KIND[format];
}

/** Ollama's capability refusal. */
function unsupported(model: StoredModel, capability: "vision" | "audio"): LlmsrvError {
  return new LlmsrvError(
    "unsupported_capability",
    `${model.display} does not support ${capability}`,
  );
}
