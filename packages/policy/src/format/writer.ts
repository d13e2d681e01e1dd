/**
 * The formatter's output buffer: lines indented by tabs, and at most one comment waiting to
 * be written at the end of the current line (a comment that followed code on its row).
 */
import type { SourceComment } from "./comments.js";

/** The writer's state at some point, to return to when a term is written again as source. */
export interface WriterMark {
  length: number;
  level: number;
  inline: boolean;
  trailing: SourceComment | undefined;
  delay: boolean;
}

export class Writer {
  private buf = "";
  /** Indentation level, in tabs. */
  level = 0;
  /** True while a line has been started and not ended. */
  inline = false;
  /** The comment to write at the end of the current line. */
  private trailing: SourceComment | undefined;
  /** Skip writing the trailing comment at the next line end (it belongs to a later line). */
  private delay = false;

  write(text: string): void {
    this.buf += text;
  }

  /** Begins a line at the current indentation. */
  startLine(): void {
    this.inline = true;
    this.buf += "\t".repeat(this.level);
  }

  /** Ends the line, with the waiting trailing comment unless it is delayed. */
  endLine(): void {
    this.inline = false;
    if (this.trailing && !this.delay) {
      this.buf += ` ${this.trailing.display}`;
      this.trailing = undefined;
    }
    this.delay = false;
    this.buf += "\n";
  }

  /** Ends the current line if one is open, then writes an empty line. */
  blankLine(): void {
    if (this.inline) this.endLine();
    this.buf += "\n";
  }

  /** Writes `text` as a whole line (on the current line when one is open). */
  writeLine(text: string): void {
    if (!this.inline) this.startLine();
    this.buf += text;
    this.endLine();
  }

  /**
   * Keeps `c` for the end of the current line. Should a second one arrive first (two source
   * rows joined on one output line), the two are merged into one comment so neither is lost.
   */
  trailingComment(c: SourceComment | undefined): void {
    if (!c) return;
    if (!this.trailing) {
      this.trailing = c;
      return;
    }
    this.trailing = { ...this.trailing, display: `${this.trailing.display} ${c.display}` };
  }

  /** True while a comment waits for the end of the line. */
  hasTrailing(): boolean {
    return this.trailing !== undefined;
  }

  /** The next line end does not write the trailing comment. */
  delayTrailing(): void {
    this.delay = true;
  }

  mark(): WriterMark {
    const { level, inline, trailing, delay } = this;
    return { length: this.buf.length, level, inline, trailing, delay };
  }

  /** Drops what was written since `m` and returns to its state. */
  reset(m: WriterMark): void {
    this.buf = this.buf.slice(0, m.length);
    this.level = m.level;
    this.inline = m.inline;
    this.trailing = m.trailing;
    this.delay = m.delay;
  }

  /** Forgets the waiting trailing comment if it sits on a row in [from, to). */
  dropTrailingWithin(from: number, to: number): void {
    if (this.trailing && this.trailing.row >= from && this.trailing.row < to)
      this.trailing = undefined;
  }

  up(): void {
    this.level++;
  }

  down(): void {
    if (this.level > 0) this.level--;
  }

  /** The text so far, with trailing empty lines reduced to one newline. */
  text(): string {
    if (!this.buf.endsWith("\n")) return this.buf;
    return `${this.buf.replace(/\n+$/, "")}\n`;
  }
}
