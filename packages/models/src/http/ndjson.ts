import type { ServerResponse } from "node:http";
import { ollamaErrorBody, toHttpError } from "./error-response.js";

/**
 * Writes a streaming NDJSON response. Headers go out with the first line; an error after
 * that becomes the last line `{"error": "..."}` instead of a dropped connection.
 */
export class NdjsonWriter {
  private started = false;

  constructor(private readonly res: ServerResponse) {}

  get headersSent(): boolean {
    return this.started;
  }

  write(value: unknown): void {
    if (this.res.destroyed) return;
    if (!this.started) {
      this.res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      this.started = true;
    }
    this.res.write(`${JSON.stringify(value)}\n`);
  }

  /** Sends an error line (the caller then ends the stream). */
  writeError(e: unknown): void {
    this.write(ollamaErrorBody(toHttpError(e)));
  }

  end(): void {
    if (!this.res.destroyed) this.res.end();
  }
}
