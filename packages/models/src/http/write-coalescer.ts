import type { ServerResponse } from "node:http";

/** Longest time a streamed line may wait so that lines written close together share a write. */
export const COALESCE_MS = 2;

/**
 * Moves streaming output off the generation's critical path and batches it. A line is
 * queued as a thunk; serialising and writing happen on a later turn of the event loop,
 * while llama.cpp already decodes the next token on its own thread. The first line of a
 * quiet stream is flushed on the next turn (microseconds); lines that follow faster than
 * COALESCE_MS share one socket write at most COALESCE_MS later. For a model producing
 * thousands of tokens per second, one JSON encoding plus one syscall per token on the
 * generation loop was the largest cost of the HTTP path.
 */
export class WriteCoalescer {
  private readonly pending: Array<() => string> = [];
  private lastFlush = Number.NEGATIVE_INFINITY;
  private scheduled: { cancel(): void } | undefined;

  constructor(private readonly res: ServerResponse) {}

  /** Queues one line, produced when it is flushed. */
  write(line: () => string): void {
    if (this.res.destroyed) return;
    this.pending.push(line);
    if (this.scheduled) return;
    const wait = COALESCE_MS - (performance.now() - this.lastFlush);
    if (wait <= 0) {
      const handle = setImmediate(() => this.flush());
      this.scheduled = { cancel: () => clearImmediate(handle) };
    } else {
      const handle = setTimeout(() => this.flush(), wait);
      this.scheduled = { cancel: () => clearTimeout(handle) };
    }
  }

  /** Writes everything queued, in one socket write. */
  flush(): void {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    this.lastFlush = performance.now();
    if (this.pending.length === 0 || this.res.destroyed) {
      this.pending.length = 0;
      return;
    }
    this.res.write(this.pending.map((line) => line()).join(""));
    this.pending.length = 0;
  }

  /** Flushes and ends the response. */
  end(): void {
    this.flush();
    if (!this.res.destroyed) this.res.end();
  }
}
