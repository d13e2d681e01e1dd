// Decodes the next token of every generating slot of one addon model in one llama_decode.
import { LlmsrvError } from "../errors.js";
import { ContextTurns } from "./context-turns.js";

/** The addon call a step makes (NativeMtmdModel.step). */
export interface StepModel {
  step(
    sequences: Int32Array,
    feeds: Int32Array,
  ): Promise<{ tokens: Int32Array; errors: Array<string | null> }>;
}

interface Request {
  slot: number;
  feed: number;
  resolve: (token: number) => void;
  reject: (e: unknown) => void;
}

/**
 * The generation steps of one model's slots. A slot joins once its prompt is evaluated and
 * then asks for one token at a time, feeding the token it was given last. The step runs
 * when every joined slot has asked: their tokens go to llama.cpp as one batch, so the model's
 * weights are read once per step for all of them, and each slot gets its own sample. A slot
 * that leaves (done, stopped or canceled) is no longer waited for.
 */
export class SlotStepper {
  private readonly joined = new Set<number>();
  private waiting: Request[] = [];
  private running = false;

  constructor(
    private readonly model: StepModel,
    /** The context's queue of native calls, shared with prompt evaluation. */
    private readonly turns: ContextTurns = new ContextTurns(),
  ) {}

  /**
   * Generates on a slot whose prompt is evaluated and sampler set: tokens go to `take` until
   * an end-of-generation token, `take` returning true (a stop sequence), `maxTokens`, or the
   * signal. Returns "length" when it ran to maxTokens.
   */
  async generate(
    slot: number,
    opts: {
      maxTokens: number;
      isEnd: (token: number) => boolean;
      take: (token: number) => boolean;
      signal: AbortSignal;
    },
  ): Promise<"stop" | "length"> {
    this.join(slot);
    let generated = 0;
    try {
      for (let feed = -1; !opts.signal.aborted && generated < opts.maxTokens; generated++) {
        const token = await this.next(slot, feed);
        if (opts.isEnd(token) || opts.take(token)) return "stop";
        feed = token;
      }
    } finally {
      this.leave(slot);
    }
    return generated >= opts.maxTokens ? "length" : "stop";
  }

  /** The slot generates from now on: steps wait for it. */
  join(slot: number): void {
    this.joined.add(slot);
  }

  /** The slot is done: steps no longer wait for it. */
  leave(slot: number): void {
    this.joined.delete(slot);
    this.runWhenAllAsked();
  }

  /**
   * The slot's next token, after `feed` (its last token; -1 for the first, sampled from the
   * prompt's logits). Rejects with the sampler's failure for this slot alone, or the step's.
   */
  next(slot: number, feed: number): Promise<number> {
    if (!this.joined.has(slot)) {
      return Promise.reject(new LlmsrvError("internal", `slot ${slot} asked for a token unjoined`));
    }
    return new Promise<number>((resolve, reject) => {
      this.waiting.push({ slot, feed, resolve, reject });
      this.runWhenAllAsked();
    });
  }

  private runWhenAllAsked(): void {
    if (this.running || this.waiting.length === 0) return;
    if (this.waiting.some((r) => !this.joined.has(r.slot))) {
      throw new LlmsrvError("internal", "a slot left with a step request pending");
    }
    if (this.waiting.length < this.joined.size) return;
    // In ascending slot order: llama.cpp (a KV stream per sequence) computes a batch as one pass
    // only while its sequence ids follow each other; out of order it takes up to one per slot.
    const batch = this.waiting.sort((a, b) => a.slot - b.slot);
    this.waiting = [];
    this.running = true;
    this.run(batch).finally(() => {
      this.running = false;
      this.runWhenAllAsked();
    });
  }

  private async run(batch: Request[]): Promise<void> {
    try {
      const sequences = Int32Array.from(batch, (r) => r.slot);
      const feeds = Int32Array.from(batch, (r) => r.feed);
      const { tokens, errors } = await this.turns.run(() => this.model.step(sequences, feeds));
      batch.forEach((r, i) => {
        const error = errors[i];
        if (error) r.reject(new LlmsrvError("internal", error));
        else r.resolve(tokens[i] ?? -1);
      });
    } catch (e) {
      for (const r of batch) r.reject(e);
    }
  }
}
