// The server's structured logger (pino, in the format every Quintet service shares).
import { createLogger as createServiceLogger, type LogFormat, type Logger } from "@quintet/kit";

/**
 * The server's structured logger, in the format every Quintet service shares (@quintet/kit):
 * on stderr (stdout carries the "listening on" line that launchers wait for), with
 * credentials redacted.
 */
export function createLogger(level: string, format?: LogFormat): Logger {
  return createServiceLogger({
    service: "models",
    level,
    format,
    redact: ["req.headers.authorization", "headers.authorization", "apiKey", "*.apiKey"],
  });
}
