// How `llmsrv run` prints a streamed answer: the reasoning set apart, words wrapped.
import type { TextSink } from "@quintet/kit";
import { WordWrapper } from "./word-wrap.js";

const GREY = "\x1b[90m";
const BOLD = "\x1b[1m";
const DEFAULT = "\x1b[0m";

/** How an answer is shown. */
export interface DisplayOptions {
  /** Wrap at this many columns; none when absent. */
  wrapAt?: number;
  /** `--hidethinking`: the reasoning is not printed. */
  hideThinking: boolean;
  /** No colours (stdout is not a terminal). */
  plain: boolean;
}

/**
 * Prints one answer's chunks as Ollama's CLI does: reasoning between `Thinking...` and
 * `...done thinking.` (grey on a terminal), then the content. Ollama closes the reasoning
 * when content starts; this also closes it at the end of an answer that was all reasoning.
 */
export class AnswerDisplay {
  private wrapper: WordWrapper | undefined;
  private thinkingOpen = false;
  private thinkingText = "";

  constructor(
    private readonly out: TextSink,
    private readonly options: DisplayOptions,
  ) {
    this.wrapper = this.newWrapper();
  }

  private newWrapper(): WordWrapper | undefined {
    const at = this.options.wrapAt;
    return at === undefined ? undefined : new WordWrapper(this.out, at);
  }

  private text(t: string): void {
    if (this.wrapper) this.wrapper.write(t);
    else this.out.write(t);
  }

  thinking(t: string): void {
    if (!t || this.options.hideThinking) return;
    if (!this.thinkingOpen) {
      const open = "Thinking...\n";
      this.out.write(this.options.plain ? open : `${GREY}${BOLD}${open}${DEFAULT}${GREY}`);
      this.thinkingOpen = true;
    }
    this.thinkingText += t;
    this.text(t);
  }

  private closeThinking(): void {
    if (!this.thinkingOpen) return;
    this.wrapper?.end();
    if (!this.thinkingText.endsWith("\n")) this.out.write("\n");
    const close = "...done thinking.\n\n";
    this.out.write(this.options.plain ? close : `${GREY}${BOLD}${close}${DEFAULT}`);
    this.thinkingOpen = false;
    this.wrapper = this.newWrapper(); // the content starts a fresh line
  }

  content(t: string): void {
    if (!t) return;
    this.closeThinking();
    this.text(t);
  }

  /** The answer is over: write what the wrapper holds, close open reasoning. */
  end(): void {
    this.wrapper?.end();
    this.closeThinking();
  }
}
