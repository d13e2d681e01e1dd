// Word wrapping of streamed text at the terminal's width, as `ollama run` wraps its answers.
import type { TextSink } from "@quintet/kit";

/**
 * Writes streamed text, breaking lines between words before the terminal's edge (Ollama
 * wraps 5 columns short of the width). A word is held until the space or newline after
 * it arrives, so it is never split across lines or redrawn; a word longer than a whole
 * line is written as it is. `end()` writes the word still held.
 */
export class WordWrapper {
  private line = 0;
  private word = "";

  constructor(
    private readonly out: TextSink,
    private readonly limit: number,
  ) {}

  write(text: string): void {
    let chunk = "";
    for (const ch of text) {
      if (ch === "\n") {
        chunk += `${this.word}\n`;
        this.word = "";
        this.line = 0;
      } else if (ch === " ") {
        chunk += this.word;
        this.line += [...this.word].length;
        this.word = "";
        if (this.line + 1 > this.limit) {
          chunk += "\n";
          this.line = 0;
        } else {
          chunk += " ";
          this.line += 1;
        }
      } else {
        this.word += ch;
        const width = [...this.word].length;
        if (this.line > 0 && this.line + width > this.limit) {
          chunk += "\n"; // the word moves to the next line whole
          this.line = 0;
        } else if (this.line === 0 && width >= this.limit) {
          chunk += `${this.word}\n`; // longer than a line: written as it is
          this.word = "";
        }
      }
    }
    if (chunk) this.out.write(chunk);
  }

  /** Writes the word still held (the end of an answer). */
  end(): void {
    if (this.word) this.out.write(this.word);
    this.line += [...this.word].length;
    this.word = "";
  }

  /** True when the last text written ended a line (or nothing was written). */
  get atLineStart(): boolean {
    return this.line === 0 && this.word === "";
  }
}

/** The wrapping width for `out`: on a terminal at least 10 wide, its width less 5; else none. */
export function wrapLimit(out: TextSink): number | undefined {
  const columns = out.columns ?? 0;
  return out.isTTY === true && columns >= 10 ? columns - 5 : undefined;
}
