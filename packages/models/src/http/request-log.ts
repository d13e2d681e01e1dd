// What the server logs about a request: one line per failure, and the optional access log.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { LlmsrvError } from "../errors.js";
import type { HttpError } from "./error-response.js";

/**
 * Logs a 5xx answer. An expected condition the server names itself (queue full, not enough
 * memory, a runner that died) is one line without a stack, a warning for 503; only an
 * unexpected error (a bug, an `internal` error) carries its stack, so a burst of refused
 * requests does not flood the log with stack traces.
 */
export function logFailure(log: Logger, e: unknown, err: HttpError, path: string): void {
  if (err.status < 500) return;
  const expected = e instanceof LlmsrvError && e.code !== "internal";
  if (!expected) log.error({ err: e, path }, "request failed");
  else if (err.status === 503) log.warn({ path, status: err.status, code: err.code }, err.message);
  else log.error({ path, status: err.status, code: err.code }, err.message);
}

/**
 * Logs one line once the response is over (sent or cut off): method, path, status, duration
 * in ms and bytes sent for it (status line and headers included), at `info` when the
 * access log is on (LLMSRV_ACCESS_LOG), else at `debug`.
 */
export function logAccess(
  log: Logger,
  accessLog: boolean,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): void {
  const started = performance.now();
  const socket = req.socket;
  const before = socket.bytesWritten;
  res.once("close", () => {
    const entry = {
      method: req.method,
      path,
      status: res.statusCode,
      ms: Math.round(performance.now() - started),
      bytes: socket.bytesWritten - before,
    };
    if (accessLog) log.info(entry, "request");
    else log.debug(entry, "request");
  });
}
