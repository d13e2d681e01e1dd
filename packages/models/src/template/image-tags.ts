// Ollama's `[img-N]` tags: where a prompt places the request's images and audio for the runtime.
import { LlmsrvError } from "../errors.js";

/**
 * Tokens one image is assumed to take when a chat is fitted to the context window before
 * the runtime has seen it (Ollama's chatPrompt counts the same for every image).
 */
export const IMAGE_TOKEN_ESTIMATE = 768;

/** The tag of the `n`-th medium of a prompt (0-based, as Ollama's runner reads it). */
export function imageTag(n: number): string {
  return `[img-${n}]`;
}

/**
 * Places each message's images in its content as Ollama's chatPrompt does: images are
 * numbered in order across the messages given (the ones kept in the window); within a
 * message, each image takes the place of the next `[img]` in its text, and the images
 * left over are tagged before the text, with nothing between the tags and the text.
 * Returns new messages (the inputs are not changed) and the media in tag order.
 */
export function tagImages<M extends { content: string; images?: readonly unknown[] }>(
  messages: readonly M[],
): { messages: M[]; media: Array<NonNullable<M["images"]>[number]> } {
  const media: Array<NonNullable<M["images"]>[number]> = [];
  const tagged = messages.map((m) => {
    if (!m.images?.length) return m;
    let prefix = "";
    let content = m.content;
    for (const image of m.images) {
      const tag = imageTag(media.length);
      media.push(image);
      if (content.includes("[img]")) content = content.replace("[img]", tag);
      else prefix += tag;
    }
    return { ...m, content: prefix + content };
  });
  return { messages: tagged, media };
}

/**
 * Refuses (400) a prompt that tags media the request does not carry: user text such as
 * `[img-3]` would otherwise reach the runtime as a tag (Ollama's runner answers
 * `invalid image index`). Only prompts for models with a projector are read for tags.
 */
export function checkImageTags(prompt: string, mediaCount: number): void {
  for (const m of prompt.matchAll(/\[img-(\d+)\]/g)) {
    const n = Number(m[1]);
    if (n >= mediaCount)
      throw new LlmsrvError(
        "bad_request",
        `invalid image index: ${n} (the prompt tags [img-${n}] but the request carries ${mediaCount} image${mediaCount === 1 ? "" : "s"})`,
      );
  }
}
