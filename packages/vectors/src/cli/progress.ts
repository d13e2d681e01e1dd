/**
 * Load progress on stderr: a redrawn bar (rows, rows/s, ETA) on a terminal, and plain lines,
 * at most one per interval, when stderr is a file or a pipe.
 */

import type { TextSink } from "@quintet/kit";
import type { LoadProgress } from "../loader/load.js";

export interface ProgressReporter {
  update(progress: LoadProgress): void;
  /** Ends the bar (newline) so later output starts on its own line. */
  finish(): void;
}

const barWidth = 24;

function seconds(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/** "30/60 rows  12.3 rows/s  ETA 3s" */
export function describeProgress(p: LoadProgress): string {
  const rate = p.elapsedMs > 0 ? (p.done * 1000) / p.elapsedMs : 0;
  const eta = rate > 0 ? ((p.total - p.done) / rate) * 1000 : Number.POSITIVE_INFINITY;
  return `${p.done}/${p.total} rows  ${rate.toFixed(1)} rows/s  ETA ${seconds(eta)}`;
}

/** Chooses the bar or the plain lines by `sink.isTTY`. */
export function createProgressReporter(sink: TextSink, intervalMs = 1000): ProgressReporter {
  if (sink.isTTY) {
    let drawn = false;
    return {
      update(p) {
        const filled = p.total > 0 ? Math.round((p.done / p.total) * barWidth) : barWidth;
        const bar = `${"#".repeat(filled)}${"-".repeat(barWidth - filled)}`;
        sink.write(`\r\x1b[2K[${bar}] ${describeProgress(p)}`);
        drawn = true;
      },
      finish() {
        if (drawn) sink.write("\n");
      },
    };
  }
  let last = Number.NEGATIVE_INFINITY;
  return {
    update(p) {
      if (p.done < p.total && p.elapsedMs - last < intervalMs) return;
      last = p.elapsedMs;
      sink.write(`progress: ${describeProgress(p)}\n`);
    },
    finish() {},
  };
}
