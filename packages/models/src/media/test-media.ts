// Smallest byte strings of each media format the server tells apart, for tests.

/** A PNG signature and the start of an IHDR chunk. */
export const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
/** A JPEG start-of-image marker and an APP0 marker. */
export const JPEG = Buffer.from("ffd8ffe000104a464946", "hex");
/** A RIFF container holding WebP. */
export const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBPVP8 ")]);
/** A RIFF container holding WAVE audio. */
export const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt ")]);
/** An MP3 starting with an ID3 tag. */
export const MP3_ID3 = Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00", "latin1");
/** An MP3 frame header: MPEG-1 layer III, 128 kbit/s, 44.1 kHz. */
export const MP3_FRAME = Buffer.from("fffb9064", "hex");

/** Base64 of bytes, as a client sends them. */
export function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}
