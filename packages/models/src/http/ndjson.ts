// Streaming NDJSON responses, with a mid-stream error as the last line.
import type { ServerResponse } from "node:http";
import { ollamaErrorBody, toHttpError } from "./error-response.js";
import { WriteCoalescer } from "./write-coalescer.js";

/**
 * Writes a streaming NDJSON response, one JSON object per line. Headers go out with the
 * first line; an error after that becomes the last line `{"error": "..."}` instead of a
 * dropped connection.
 */
export class NdjsonWriter {
  private started = false;
  private readonly out: WriteCoalescer;

  constructor(private readonly res: ServerResponse) {
    this.out = new WriteCoalescer(res);
  }

  get headersSent(): boolean {
    return this.started;
  }

  write(value: unknown): void {
    if (this.res.destroyed) return;
    if (!this.started) {
      this.res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      this.started = true;
    }
    this.out.write(() => `${JSON.stringify(value)}\n`);
  }

  /** Sends an error line (the caller then ends the stream). */
  writeError(e: unknown): void {
    this.write(ollamaErrorBody(toHttpError(e)));
  }

  end(): void {
    this.out.end();
  }
}
