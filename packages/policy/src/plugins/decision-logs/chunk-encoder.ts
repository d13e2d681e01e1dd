/**
 * Packs event JSON texts into gzip-compressed JSON arrays ("chunks") whose compressed size
 * stays within `upload_size_limit_bytes`, as OPA's encoder does. Compressing every event on
 * its own to learn its size would cost two compressions per event, so, like OPA, events
 * collect until their uncompressed size reaches an adaptive target: a chunk that came out
 * under 90% of the limit doubles the target, one that had to be split halves it. An event
 * that does not fit under the limit even alone is dropped.
 */
import { gzipSync } from "node:zlib";

/** Below this share of the limit a chunk counts as under-filled (OPA's threshold). */
const FILL_THRESHOLD = 0.9;
/** JSON rarely compresses better than this; the target never grows past it. */
const MAX_TARGET_FACTOR = 64;

export class ChunkEncoder {
  private pending: string[] = [];
  /** Uncompressed size of the pending array: brackets, commas and the events. */
  private pendingBytes = 0;
  private target: number;

  constructor(
    private readonly limit: number,
    private readonly onDrop: (eventBytes: number, limit: number) => void,
  ) {
    this.target = limit;
  }

  /** Adds one event; returns the chunks that were completed to make room for it. */
  write(eventJSON: string): Buffer[] {
    const size = Buffer.byteLength(eventJSON);
    let sealed: Buffer[] = [];
    if (this.pending.length > 0 && this.pendingBytes + size + 1 >= this.target) {
      sealed = this.seal(true);
    }
    this.pending.push(eventJSON);
    this.pendingBytes += size + (this.pending.length === 1 ? 2 : 1);
    return sealed;
  }

  /** Completes whatever is pending into chunks (before an upload). */
  flush(): Buffer[] {
    // An upload cuts a chunk short: its size says nothing about the target being too small.
    return this.seal(false);
  }

  private seal(full: boolean): Buffer[] {
    if (this.pending.length === 0) return [];
    const texts = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const chunks: Buffer[] = [];
    let start = 0;
    let split = false;
    while (start < texts.length) {
      let count = texts.length - start;
      for (;;) {
        const chunk = gzipSync(`[${texts.slice(start, start + count).join(",")}]`);
        if (chunk.length <= this.limit) {
          chunks.push(chunk);
          start += count;
          break;
        }
        split = true;
        if (count === 1) {
          this.onDrop(Buffer.byteLength(texts[start] as string), this.limit);
          start += 1;
          break;
        }
        count = Math.ceil(count / 2);
      }
    }
    if (split) {
      this.target = Math.max(this.limit, Math.floor(this.target / 2));
    } else if (full && (chunks[0] as Buffer).length < this.limit * FILL_THRESHOLD) {
      this.target = Math.min(this.target * 2, this.limit * MAX_TARGET_FACTOR);
    }
    return chunks;
  }
}
