// How long streamed pieces wait so that pieces produced close together share a send.
/** Longest time a streamed piece may wait so that pieces produced close together share a send. */
export const BATCH_WINDOW_MS = 2;

/**
 * When to flush a stream of small pieces (tokens, NDJSON lines). The first piece of a quiet
 * stream is flushed on the next turn of the event loop (microseconds); pieces that follow
 * faster than BATCH_WINDOW_MS are flushed together at most that much later. One send per
 * token (an encoding and a syscall each) was the largest cost of a fast model's stream.
 */
export class BatchWindow {
  private lastFlush = Number.NEGATIVE_INFINITY;
  private scheduled: { cancel(): void } | undefined;

  constructor(private readonly flush: () => void) {}

  /** Arranges a flush for a piece just queued, unless one is already arranged. */
  schedule(): void {
    if (this.scheduled) return;
    const wait = BATCH_WINDOW_MS - (performance.now() - this.lastFlush);
    if (wait <= 0) {
      const handle = setImmediate(this.flush);
      this.scheduled = { cancel: () => clearImmediate(handle) };
    } else {
      const handle = setTimeout(this.flush, wait);
      this.scheduled = { cancel: () => clearTimeout(handle) };
    }
  }

  /** Call at the start of every flush: cancels the arranged one and restarts the window. */
  flushing(): void {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    this.lastFlush = performance.now();
  }
}
