import type { ServerResponse } from "node:http";

/** Longest time a streamed line may wait so that lines written close together share a write. */
export const COALESCE_MS = 2;

/**
 * Batches streamed lines into fewer socket writes. A line written when nothing was sent in
 * the last COALESCE_MS goes out at once (so the first token and slow streams see no
 * delay); lines that follow faster than that are corked and flushed together at most
 * COALESCE_MS later. Very fast models stream hundreds of tokens per second, and one
 * syscall per token is then the largest cost of the HTTP path.
 */
export class WriteCoalescer {
  private lastFlush = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly res: ServerResponse) {}

  write(text: string): void {
    if (this.res.destroyed) return;
    const now = performance.now();
    if (this.timer === undefined && now - this.lastFlush >= COALESCE_MS) {
      this.res.write(text);
      this.lastFlush = now;
      return;
    }
    if (this.timer === undefined) {
      this.res.cork();
      this.timer = setTimeout(
        () => this.flush(),
        Math.max(0, COALESCE_MS - (now - this.lastFlush)),
      );
    }
    this.res.write(text);
  }

  /** Sends whatever is corked now. */
  flush(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastFlush = performance.now();
    if (!this.res.destroyed) this.res.uncork();
  }

  /** Flushes and ends the response. */
  end(): void {
    this.flush();
    if (!this.res.destroyed) this.res.end();
  }
}
