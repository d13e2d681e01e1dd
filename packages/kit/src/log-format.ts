/**
 * The one log format of every Quintet service and the launcher. A record is a JSON object
 * with `time` (ISO 8601, UTC), `level` (one of `logLevels`), `service` and `msg`, then any
 * fields of the event. As JSON it is one line; for a person it is rendered as
 * `<time> <LEVEL> <service>: <msg> key=value ...`.
 */

/** Level names, least to most severe (pino's, which the services already used). */
export const logLevels = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof logLevels)[number];

/** `json`: one JSON object per line; `text`: a line for a person. */
export type LogFormat = "json" | "text";

/** The fields every record has, in this order. */
export interface LogRecord {
  time: string;
  level: LogLevel;
  service: string;
  msg: string;
  [field: string]: unknown;
}

const fixed = new Set(["time", "level", "service", "msg"]);

/** Whether a parsed JSON value is a record of this format. */
export function isLogRecord(value: unknown): value is LogRecord {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.time === "string" &&
    typeof record.service === "string" &&
    typeof record.msg === "string" &&
    (logLevels as readonly unknown[]).includes(record.level)
  );
}

/** A field value as a person reads it: bare when plain, JSON-quoted otherwise. */
function renderValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value === undefined) return "undefined";
  return JSON.stringify(value);
}

/** An `err` field (pino's error serializer: type, message, stack) as `err=...` plus its stack. */
function renderError(value: unknown): { inline: string; stack?: string } {
  if (typeof value === "object" && value !== null && "message" in value) {
    const error = value as { message?: unknown; stack?: unknown };
    return {
      inline: `err=${renderValue(String(error.message))}`,
      stack: typeof error.stack === "string" ? error.stack : undefined,
    };
  }
  return { inline: `err=${renderValue(value)}` };
}

/** One record as a line for a person (a stack trace, if any, on the lines after it). */
export function renderText(record: LogRecord): string {
  const parts = [
    record.time,
    record.level.toUpperCase().padEnd(5),
    `${record.service}:`,
    record.msg,
  ];
  let stack: string | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (fixed.has(key)) continue;
    if (key === "err") {
      const rendered = renderError(value);
      parts.push(rendered.inline);
      stack = rendered.stack;
    } else {
      parts.push(`${key}=${renderValue(value)}`);
    }
  }
  const line = parts.join(" ");
  return stack ? `${line}\n${stack.replace(/^/gm, "    ")}` : line;
}

/** A record of the format for a line of output that is not one (a child's plain stdout). */
export function recordOf(
  service: string,
  msg: string,
  level: LogLevel = "info",
  fields: Record<string, unknown> = {},
): LogRecord {
  return { time: new Date().toISOString(), level, service, msg, ...fields };
}

/**
 * `LOG_FORMAT` from the environment: `json`, `text`, or unset/`auto` (undefined: decided by
 * whether the output is a terminal). A bad value is recorded in `bad`, naming the variable.
 */
export function readLogFormat(env: NodeJS.ProcessEnv, bad: string[]): LogFormat | undefined {
  const text = env.LOG_FORMAT?.trim().toLowerCase();
  if (text === undefined || text === "" || text === "auto") return undefined;
  if (text === "json" || text === "text") return text;
  bad.push(`LOG_FORMAT must be json, text or auto, got "${env.LOG_FORMAT}"`);
  return undefined;
}

/** The format to write: the configured one, else text on a terminal and JSON otherwise. */
export function resolveLogFormat(
  configured: LogFormat | undefined,
  isTTY: boolean | undefined,
): LogFormat {
  return configured ?? (isTTY ? "text" : "json");
}

/** `LOG_FORMAT` for each package's configuration help and README table. */
export const logFormatVariable = {
  name: "LOG_FORMAT",
  meaning: "log lines: json, text, or auto (text on a terminal, JSON lines otherwise)",
  default: "auto",
} as const;

/**
 * A line a service wrote, as a record of this format: its own record as is; another JSON
 * object (a decision log line, say) completed with the missing fields; any other text as the
 * message of an `info` record of `service`.
 */
export function toRecord(service: string, line: string): LogRecord {
  let value: unknown;
  try {
    value = line.startsWith("{") ? JSON.parse(line) : undefined;
  } catch {
    value = undefined;
  }
  if (isLogRecord(value)) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return recordOf(service, line);
  }
  const fields = value as Record<string, unknown>;
  const level = (logLevels as readonly unknown[]).includes(fields.level)
    ? (fields.level as LogLevel)
    : "info";
  return {
    ...fields,
    time: typeof fields.time === "string" ? fields.time : new Date().toISOString(),
    level,
    service: typeof fields.service === "string" ? fields.service : service,
    msg: typeof fields.msg === "string" ? fields.msg : "",
  };
}
