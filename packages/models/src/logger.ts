import { type Logger, pino } from "pino";

/**
 * The server's structured logger: JSON lines on stderr (stdout carries the "listening on"
 * line that launchers wait for), with credentials redacted.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { component: "llmsrv" },
      redact: ["req.headers.authorization", "headers.authorization", "apiKey", "*.apiKey"],
    },
    pino.destination(2),
  );
}
