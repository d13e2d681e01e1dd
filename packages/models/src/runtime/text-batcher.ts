/** Longest time a piece of generated text may wait so that pieces close together share a message. */
export const TEXT_BATCH_MS = 2;

/**
 * Batches the text a runner streams to the server. Sending one IPC message per token on the
 * generation loop (a serialisation and a syscall each) slowed fast models by a quarter; now
 * the first piece of a quiet stream goes out on the next turn of the event loop, and pieces
 * that follow faster than TEXT_BATCH_MS are joined and sent at most that much later.
 */
export class TextBatcher {
  private pending = "";
  private lastSend = Number.NEGATIVE_INFINITY;
  private scheduled: { cancel(): void } | undefined;

  constructor(private readonly send: (text: string) => void) {}

  push(text: string): void {
    this.pending += text;
    if (this.scheduled) return;
    const wait = TEXT_BATCH_MS - (performance.now() - this.lastSend);
    if (wait <= 0) {
      const handle = setImmediate(() => this.flush());
      this.scheduled = { cancel: () => clearImmediate(handle) };
    } else {
      const handle = setTimeout(() => this.flush(), wait);
      this.scheduled = { cancel: () => clearTimeout(handle) };
    }
  }

  /** Sends what is pending now (before the call's answer, which must follow its text). */
  flush(): void {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    this.lastSend = performance.now();
    if (this.pending === "") return;
    const text = this.pending;
    this.pending = "";
    this.send(text);
  }
}
