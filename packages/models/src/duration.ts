/**
 * Keep-alive durations as Ollama reads them: Go duration strings ("5m", "1h30m", "500ms"),
 * numbers of seconds, and negative values meaning "forever". Results are milliseconds;
 * `Infinity` stands for forever.
 */
import { DurationError, parseGoDuration as parseDuration } from "@quintet/gostd/time";

/**
 * Parses a Go duration string (time.ParseDuration, from @quintet/gostd) into milliseconds;
 * returns undefined when it is not one. "0" is accepted.
 */
export function parseGoDuration(text: string): number | undefined {
  try {
    return Number(parseDuration(text.trim())) / 1e6;
  } catch (e) {
    if (e instanceof DurationError) return undefined;
    throw e;
  }
}

/** Normalises a signed millisecond value: negative means forever. */
function keepAliveFromMs(ms: number): number {
  return ms < 0 ? Number.POSITIVE_INFINITY : ms;
}

/**
 * Reads `LLMSRV_KEEP_ALIVE`: a Go duration or a plain number of seconds.
 * Returns undefined when the value is neither.
 */
export function parseKeepAliveEnv(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^[+-]?\d+(\.\d+)?$/.test(trimmed)) return keepAliveFromMs(Number(trimmed) * 1000);
  const ms = parseGoDuration(trimmed);
  return ms === undefined ? undefined : keepAliveFromMs(ms);
}

/** Outcome of reading a request's `keep_alive`: absent, a value, or a problem to report. */
export type KeepAliveField = { ms: number | undefined } | { error: string };

/**
 * Reads a request's `keep_alive`: a number of seconds or a Go duration string
 * (a bare numeric string other than "0" is rejected, as Go's parser does).
 */
export function parseKeepAliveField(value: unknown): KeepAliveField {
  if (value === undefined || value === null) return { ms: undefined };
  if (typeof value === "number" && Number.isFinite(value)) {
    return { ms: keepAliveFromMs(value * 1000) };
  }
  if (typeof value === "string") {
    const ms = parseGoDuration(value);
    if (ms !== undefined) return { ms: keepAliveFromMs(ms) };
    if (/^[+-]?\d+(\.\d+)?$/.test(value.trim())) {
      return { error: `time: missing unit in duration "${value}"` };
    }
    return { error: `time: invalid duration "${value}"` };
  }
  return { error: `Unsupported type: '${typeof value}' for keep_alive` };
}

/** Formats a keep-alive for display (`Forever`, `5m0s`-like text kept short). */
export function formatKeepAlive(ms: number): string {
  if (!Number.isFinite(ms)) return "forever";
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000}m`;
  return `${ms / 1000}s`;
}
