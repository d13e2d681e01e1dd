// Word wrapping of streamed text at the terminal's width, as `ollama run` wraps its answers.
import type { TextSink } from "@quintet/kit";

/**
 * Writes streamed text, breaking lines between words before the terminal's edge (Ollama
 * wraps 5 columns short of the width). A word, and the spaces before it, are held until
 * the word ends, so a word is never split across lines or redrawn and no line ends in a
 * space; a word longer than a whole line is written as it is. `end()` writes what is held.
 */
export class WordWrapper {
  private line = 0;
  private gap = "";
  private word = "";
  /** Inside a word longer than a line: its characters go straight out. */
  private overlong = false;

  constructor(
    private readonly out: TextSink,
    private readonly limit: number,
  ) {}

  write(text: string): void {
    let chunk = "";
    for (const ch of text) {
      if (ch === "\n") {
        chunk += `${this.word ? this.gap + this.word : ""}\n`;
        this.reset();
        this.line = 0;
      } else if (ch === " ") {
        this.overlong = false;
        if (this.word) chunk += this.flushWord();
        this.gap += " ";
      } else if (this.overlong) {
        chunk += ch;
        this.line += 1;
      } else {
        this.word += ch;
        const width = [...this.word].length;
        if (this.line > 0 && this.line + this.gap.length + width > this.limit) {
          chunk += "\n"; // the word moves to the next line whole
          this.line = 0;
          this.gap = "";
        }
        if (this.line === 0 && width >= this.limit) {
          chunk += this.flushWord();
          this.overlong = true;
        }
      }
    }
    if (chunk) this.out.write(chunk);
  }

  private flushWord(): string {
    const text = this.gap + this.word;
    this.line += [...text].length;
    this.gap = "";
    this.word = "";
    return text;
  }

  private reset(): void {
    this.gap = "";
    this.word = "";
    this.overlong = false;
  }

  /** Writes the word still held (the end of an answer). */
  end(): void {
    if (this.word) this.out.write(this.flushWord());
    this.reset();
  }
}

/** The wrapping width for `out`: on a terminal at least 10 wide, its width less 5; else none. */
export function wrapLimit(out: TextSink): number | undefined {
  const columns = out.columns ?? 0;
  return out.isTTY === true && columns >= 10 ? columns - 5 : undefined;
}
