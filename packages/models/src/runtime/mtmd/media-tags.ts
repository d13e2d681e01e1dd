// `[img-N]` tags in a prompt: replaced by mtmd's marker, with the media they name in order (and back, in errors).
import { badRequest } from "../../errors.js";

/** Ollama's tag for the Nth image (or audio clip) of a request. */
const TAG = /\[img-(\d+)\]/g;

/**
 * Replaces each `[img-N]` tag of `prompt` with `marker` and lists `media[N]` for each, in the
 * order they appear (a tag used twice places its media twice), and the N of each (`indexes`).
 * A tag whose N has no media is a bad request naming it; media no tag names are not
 * evaluated, as in Ollama's runner.
 */
export function placeMedia(
  prompt: string,
  media: readonly Uint8Array[],
  marker: string,
): { text: string; media: Uint8Array[]; indexes: number[] } {
  const placed: Uint8Array[] = [];
  const indexes: number[] = [];
  // A marker already in the prompt would be taken for media: written in a harmless form.
  const safe = prompt.split(marker).join(marker.replace("<", "< "));
  const text = safe.replace(TAG, (tag, n: string) => {
    const item = media[Number(n)];
    if (item === undefined) {
      throw badRequest(
        `invalid image index: ${tag} refers to image ${n}, but the request has ${media.length} image(s)`,
      );
    }
    placed.push(item);
    indexes.push(Number(n));
    return marker;
  });
  return { text, media: placed, indexes };
}

/**
 * An addon error about placed media item i (`image i ...`, `media i ...`) renamed to the
 * request's index `indexes[i]`: the addon counts in tag order, the client in its own.
 */
export function withRequestIndex(message: string, indexes: readonly number[]): string {
  return message.replace(/^(image|media) (\d+)\b/, (whole, word: string, i: string) => {
    const n = indexes[Number(i)];
    return n === undefined ? whole : `${word} ${n}`;
  });
}
