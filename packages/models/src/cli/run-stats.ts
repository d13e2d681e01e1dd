// The timing lines `llmsrv run --verbose` prints after an answer.
import type { ResponseMetrics } from "../api/types.js";

/**
 * The timing lines `run --verbose` prints after an answer, as Ollama's CLI prints them
 * (durations in Go's `time.Duration` notation, rates with two decimals).
 */

/** Digits of `value` with up to `places` decimals, trailing zeros dropped. */
function trimmed(value: number, places: number): string {
  return value.toFixed(places).replace(/\.?0+$/, "");
}

/** Go's Duration.String(): `850ns`, `1.5µs`, `12.345ms`, `2.5s`, `1m3.2s`, `1h0m5s`. */
export function goDuration(ns: number): string {
  const n = Math.round(ns);
  if (n === 0) return "0s";
  if (n < 1_000) return `${n}ns`;
  if (n < 1_000_000) return `${trimmed(n / 1_000, 3)}µs`;
  if (n < 1_000_000_000) return `${trimmed(n / 1_000_000, 6)}ms`;
  const hours = Math.floor(n / 3_600_000_000_000);
  const minutes = Math.floor((n % 3_600_000_000_000) / 60_000_000_000);
  const seconds = trimmed((n % 60_000_000_000) / 1e9, 9);
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** The lines Ollama prints, each only when its figure is present. */
export function statsText(m: ResponseMetrics): string {
  const lines: string[] = [];
  const row = (label: string, value: string) => lines.push(`${`${label}:`.padEnd(22)}${value}`);
  const rate = (count: number, ns: number) => `${((count / ns) * 1e9).toFixed(2)} tokens/s`;
  if (m.total_duration) row("total duration", goDuration(m.total_duration));
  if (m.load_duration) row("load duration", goDuration(m.load_duration));
  if (m.prompt_eval_count) row("prompt eval count", `${m.prompt_eval_count} token(s)`);
  if (m.prompt_eval_duration) {
    row("prompt eval duration", goDuration(m.prompt_eval_duration));
    row("prompt eval rate", rate(m.prompt_eval_count ?? 0, m.prompt_eval_duration));
  }
  if (m.eval_count) row("eval count", `${m.eval_count} token(s)`);
  if (m.eval_duration) {
    row("eval duration", goDuration(m.eval_duration));
    row("eval rate", rate(m.eval_count ?? 0, m.eval_duration));
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
