// OpenAI-style Server-Sent Events: `data: <json>` blocks, then `data: [DONE]`.
import type { ServerResponse } from "node:http";
import { openaiErrorBody, toHttpError } from "./error-response.js";
import { WriteCoalescer } from "./write-coalescer.js";

/** Writes OpenAI-style Server-Sent Events: `data: <json>` blocks, then `data: [DONE]`. */
export class SseWriter {
  private started = false;
  private readonly out: WriteCoalescer;

  constructor(private readonly res: ServerResponse) {
    this.out = new WriteCoalescer(res);
  }

  get headersSent(): boolean {
    return this.started;
  }

  private start(): void {
    if (this.started) return;
    this.res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache",
      Connection: "keep-alive",
    });
    this.started = true;
  }

  write(value: unknown): void {
    if (this.res.destroyed) return;
    this.start();
    this.out.write(() => `data: ${JSON.stringify(value)}\n\n`);
  }

  /** An error after the stream started is sent as an error event, then the stream ends. */
  writeError(e: unknown): void {
    this.write(openaiErrorBody(toHttpError(e)));
  }

  done(): void {
    if (this.res.destroyed) return;
    this.start();
    this.out.write(() => "data: [DONE]\n\n");
    this.out.end();
  }
}
