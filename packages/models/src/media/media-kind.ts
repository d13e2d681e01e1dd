// Tells images (PNG, JPEG, WebP) and audio (WAV, MP3) apart by their first bytes.

/** The formats a projector's runtime is given, by content. */
export type MediaFormat = "png" | "jpeg" | "webp" | "wav" | "mp3";

/** What a format needs of the model's projector: a vision or an audio encoder. */
export type MediaKind = "image" | "audio";

export const MEDIA_KIND: Readonly<Record<MediaFormat, MediaKind>> = {
  png: "image",
  jpeg: "image",
  webp: "image",
  wav: "audio",
  mp3: "audio",
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/**
 * An MPEG audio frame header: 11 sync bits, then a version, layer, bitrate and sample
 * rate that are not the reserved values (so random bytes starting 0xFF rarely pass).
 */
function isMpegFrame(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff) return false;
  const b1 = bytes[1] as number;
  const b2 = bytes[2] as number;
  if ((b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 3;
  const layer = (b1 >> 1) & 3;
  const bitrate = b2 >> 4;
  const sampleRate = (b2 >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 15 && sampleRate !== 3;
}

/** The format of `bytes` by its magic bytes, or undefined when it is none of them. */
export function sniffMedia(bytes: Uint8Array): MediaFormat | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("RIFF"))) {
    if (startsWith(bytes, ascii("WEBP"), 8)) return "webp";
    if (startsWith(bytes, ascii("WAVE"), 8)) return "wav";
    return undefined;
  }
  if (startsWith(bytes, ascii("ID3")) || isMpegFrame(bytes)) return "mp3";
  return undefined;
}

/** The first bytes in hex, to name what was sent instead of a known format. */
export function leadingBytes(bytes: Uint8Array, n = 8): string {
  if (bytes.length === 0) return "no bytes";
  const hex = [...bytes.subarray(0, n)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
  return `first bytes ${hex}`;
}
