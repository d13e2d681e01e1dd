// Batches streamed response writes off the generation's critical path.
import type { ServerResponse } from "node:http";
import { BatchWindow } from "../batch-window.js";

/**
 * Moves streaming output off the generation's critical path and batches it. A line is
 * queued as a thunk; serialising and writing happen when the batch window flushes, on a later
 * turn of the event loop, so lines produced close together share one socket write.
 */
export class WriteCoalescer {
  private readonly pending: Array<() => string> = [];
  private readonly window = new BatchWindow(() => this.flush());

  constructor(private readonly res: ServerResponse) {}

  /** Queues one line, produced when it is flushed. */
  write(line: () => string): void {
    if (this.res.destroyed) return;
    this.pending.push(line);
    this.window.schedule();
  }

  /** Writes everything queued, in one socket write. */
  flush(): void {
    this.window.flushing();
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
