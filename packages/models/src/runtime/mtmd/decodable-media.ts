// Media as llama.cpp's mtmd decodes them: WebP (which mtmd reads only through ffmpeg) as PNG.
import { LlmsrvError, messageOf } from "../../errors.js";

/** True for a RIFF container holding WebP (the bytes' own signature, as the API sniffs it). */
function isWebp(bytes: Uint8Array): boolean {
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  return bytes.length >= 12 && tag(0) === "RIFF" && tag(8) === "WEBP";
}

/**
 * Returns the media with every WebP image re-encoded as PNG (lossless, by sharp's libvips,
 * loaded only when a WebP arrives); other bytes pass unchanged. An undecodable WebP is a
 * 400 naming its position among the request's media.
 */
export async function decodableMedia(media: readonly Uint8Array[]): Promise<Uint8Array[]> {
  if (!media.some(isWebp)) return [...media];
  const { default: sharp } = await import("sharp");
  return Promise.all(
    media.map(async (bytes, i) => {
      if (!isWebp(bytes)) return bytes;
      try {
        return new Uint8Array(await sharp(bytes).png().toBuffer());
      } catch (e) {
        throw new LlmsrvError("bad_request", `image ${i} is not a decodable WebP: ${messageOf(e)}`);
      }
    }),
  );
}
