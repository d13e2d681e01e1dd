// llama.cpp's log lines: written by a runner process on stderr, read back with their level.

/** Levels of the server's log (pino's names). */
export type LogLevelName = "fatal" | "error" | "warn" | "info" | "debug";

/** node-llama-cpp's log levels (LlamaLogLevel) as the server's. */
const LEVELS: Readonly<Record<string, LogLevelName>> = {
  fatal: "fatal",
  error: "error",
  warn: "warn",
  info: "info",
  log: "info",
  debug: "debug",
};

/** node-llama-cpp's prefix for its own and llama.cpp's messages. */
const PREFIX = "[node-llama-cpp";

/** The stderr line a runner writes for one message of node-llama-cpp (its `logger`). */
export function llamaLogLine(level: string, message: string): string {
  return `${PREFIX}:${level}] ${message.replace(/\s+$/, "").replace(/\n/g, " ")}\n`;
}

/**
 * One stderr line of a runner as a log entry: `[node-llama-cpp:<level>] text` with its
 * level, node-llama-cpp's default `[node-llama-cpp] text` as a warning, and any other line
 * (a native abort, ggml's assertion) as an error, since only failures write there.
 */
export function parseRunnerLine(line: string): { level: LogLevelName; message: string } {
  const m = /^\[node-llama-cpp(?::(\w+))?\]\s?(.*)$/.exec(line);
  if (!m) return { level: "error", message: line };
  const level = m[1] === undefined ? "warn" : (LEVELS[m[1]] ?? "warn");
  return { level, message: m[2] as string };
}

/**
 * True for a stack frame of the backtrace ggml prints after an assertion when gdb is absent
 * (`/path/libggml-base.so(ggml_abort+0x152)[0x7f41ec34cf42]`, `node[0x18a7b40]`) or gdb's own
 * frames (`#3  0x00007f... in ...`): never the reason a runner died.
 */
export function isBacktraceFrame(line: string): boolean {
  const l = line.trim();
  return /^\S+(?:\([^)\s]*\))?\[0x[0-9a-f]+\]$/.test(l) || /^#\d+\s+0x[0-9a-f]+\s/.test(l);
}
