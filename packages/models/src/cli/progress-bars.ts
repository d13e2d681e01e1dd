// Pull and push progress drawn as Ollama's CLI draws it.
import type { TransferProgress } from "../api/types.js";
import { formatBytes } from "./format.js";

const BAR_WIDTH = 25;

/** `pulling 1a2b3c4d5e6f: 42% ▕██████████               ▏ 12 MB/29 MB` */
export function barLine(
  p: Required<Pick<TransferProgress, "status" | "total" | "completed">>,
): string {
  const ratio = p.total > 0 ? Math.min(1, p.completed / p.total) : 1;
  const filled = Math.round(ratio * BAR_WIDTH);
  const bar = `${"█".repeat(filled)}${" ".repeat(BAR_WIDTH - filled)}`;
  const pct = `${Math.floor(ratio * 100)}%`.padStart(4);
  const amount =
    p.completed >= p.total
      ? formatBytes(p.total)
      : `${formatBytes(p.completed)}/${formatBytes(p.total)}`;
  return `${p.status}: ${pct} ▕${bar}▏ ${amount}`;
}

/**
 * Draws the progress of a pull or push as Ollama's CLI does: a bar per layer, and each
 * other status on its own line. On a terminal the current layer's bar is redrawn in
 * place; otherwise (a pipe, a log) each layer prints one final bar line.
 */
export class ProgressBars {
  private current: string | undefined;
  private lastStatus: string | undefined;

  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly tty: boolean,
  ) {}

  update(p: TransferProgress): void {
    if (p.digest && p.total !== undefined) {
      const line = barLine({ status: p.status, total: p.total, completed: p.completed ?? 0 });
      const done = (p.completed ?? 0) >= p.total;
      if (this.tty) {
        if (this.current !== undefined && this.current !== p.digest) this.out.write("\n");
        this.out.write(`\r${line}\x1b[K`);
        this.current = p.digest;
      } else if (done && this.current !== p.digest) {
        this.out.write(`${line}\n`);
        this.current = p.digest;
      }
      return;
    }
    if (p.status === this.lastStatus) return;
    this.lastStatus = p.status;
    if (this.tty && this.current !== undefined) this.out.write("\n");
    this.current = undefined;
    this.out.write(`${p.status}\n`);
  }
}
