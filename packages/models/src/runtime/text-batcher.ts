// Batches the text a runner streams to the server into fewer IPC messages.
import { BatchWindow } from "../batch-window.js";

/**
 * Batches the text a runner streams to the server. Sending one IPC message per token on the
 * generation loop (a serialisation and a syscall each) slowed fast models by a quarter; the
 * batch window joins pieces that follow each other closely into one message.
 */
export class TextBatcher {
  private pending = "";
  private readonly window = new BatchWindow(() => this.flush());

  constructor(private readonly send: (text: string) => void) {}

  push(text: string): void {
    this.pending += text;
    this.window.schedule();
  }

  /** Sends what is pending now (before the call's answer, which must follow its text). */
  flush(): void {
    this.window.flushing();
    if (this.pending === "") return;
    const text = this.pending;
    this.pending = "";
    this.send(text);
  }
}
