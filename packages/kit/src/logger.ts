/**
 * The logger of every Quintet service: pino, shaped into the records of log-format.ts (ISO
 * `time`, level names, `service`, `msg`), written as JSON lines or rendered for a person.
 * Services keep pino's API (`log.info({ field }, "message")`), so Fastify takes it as is.
 */
import { type Logger, pino } from "pino";
import { isLogRecord, type LogFormat, renderText, resolveLogFormat } from "./log-format.js";
import type { TextSink } from "./text-sink.js";

/** Where log lines go: any text sink; `isTTY` picks text over JSON when no format is set. */
export type LogDestination = TextSink;

export interface LoggerOptions {
  /** Name in every record's `service` field (the package's command). */
  service: string;
  /** pino level name, or `silent`. */
  level?: string;
  /** `json`, `text`, or undefined to decide by `destination.isTTY`. */
  format?: LogFormat;
  /** Default: standard error. */
  destination?: LogDestination;
  /** Paths of fields to hide (pino's redact syntax). */
  redact?: string[];
}

export type { Logger };

/** A destination that renders each JSON record pino writes as a line for a person. */
function textDestination(destination: LogDestination): { write(line: string): void } {
  return {
    write(line: string) {
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        destination.write(line);
        return;
      }
      destination.write(isLogRecord(record) ? `${renderText(record)}\n` : line);
    },
  };
}

/** A logger writing this package's records in the format chosen for its destination. */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? process.stderr;
  const format = resolveLogFormat(options.format, destination.isTTY);
  const sink =
    format === "text"
      ? textDestination(destination)
      : { write: (line: string) => destination.write(line) };
  return pino(
    {
      level: options.level ?? "info",
      base: { service: options.service },
      messageKey: "msg",
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      redact: options.redact,
    },
    sink,
  );
}
