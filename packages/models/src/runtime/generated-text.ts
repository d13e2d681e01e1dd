// The text of one generation as it grows: decoded tokens with stop sequences applied.
import { StopSequenceFilter } from "./stop-sequences.js";
import type { TokenTextDecoder } from "./token-text.js";

/**
 * The answer of one generation as it grows: tokens decoded to text (`token-text.ts`), stop
 * sequences applied to that text (`stop-sequences.ts`), the released text streamed to
 * `onText` and kept whole in `text`.
 */
export class GeneratedText {
  readonly tokens: number[] = [];
  text = "";
  /** When the first token arrived (prompt evaluation ends there). */
  firstTokenAt: bigint | undefined;
  private readonly filter: StopSequenceFilter;

  constructor(
    private readonly decoder: TokenTextDecoder,
    stops: readonly string[],
    onText: (text: string) => void,
  ) {
    this.filter = new StopSequenceFilter(stops, (t) => {
      this.text += t;
      onText(t);
    });
  }

  /** True once a stop sequence ended the answer. */
  get stopped(): boolean {
    return this.filter.stopped;
  }

  /** Adds generated tokens; returns true when they completed a stop sequence. */
  add(tokens: readonly number[]): boolean {
    if (this.filter.stopped) return true;
    this.firstTokenAt ??= process.hrtime.bigint();
    this.tokens.push(...tokens);
    return this.filter.push(this.decoder.push(tokens));
  }

  /** End of generation: the text still held back is released (no stop sequence followed). */
  finish(): void {
    if (this.filter.stopped) return;
    this.filter.push(this.decoder.flush());
    this.filter.flush();
  }
}
