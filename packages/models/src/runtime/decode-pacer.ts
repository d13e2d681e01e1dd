// Keeps the generating sequences of one context in step, so llama.cpp decodes them as one batch.
import type { LlamaContextSequence } from "node-llama-cpp";

type Evaluate = LlamaContextSequence["evaluate"];
type TokenGenerator = ReturnType<Evaluate>;

/**
 * Paces the sequences of one LlamaContext. node-llama-cpp decodes every token queued on a
 * context in the same turn of the event loop as one batch, but its dispatch loop starts the
 * next batch as soon as any token is queued: a sequence whose sampled token reached it a few
 * microtasks later than the others missed the batch, and four sequences were decoded as
 * batches of three (a third more decode calls, each costing nearly as much as a full one).
 *
 * A paced sequence, once its prompt is evaluated, asks for its next token only when every
 * other generating sequence of the context has received its own, and all of them ask in the
 * same turn of the event loop: their tokens land in one llama_decode call. A sequence alone
 * on its context is never held.
 */
export class DecodePacer {
  /** Paced sequences between their first generated token and the end of their generation. */
  private generating = 0;
  private waiting: Array<() => void> = [];
  private releaseScheduled = false;

  /** Wraps `sequence.evaluate` so that its generations are paced; returns the sequence. */
  pace(sequence: LlamaContextSequence): LlamaContextSequence {
    const evaluate: Evaluate = sequence.evaluate.bind(sequence);
    sequence.evaluate = ((tokens, options) => this.paced(evaluate(tokens, options))) as Evaluate;
    return sequence;
  }

  private async *paced(inner: TokenGenerator): TokenGenerator {
    let counted = false;
    try {
      // The first token follows the prompt's evaluation, which is not held: a long prompt
      // must not stall the sequences already generating.
      let next = await inner.next();
      this.generating++;
      counted = true;
      while (!next.done) {
        const replacement = yield next.value;
        if (this.generating > 1) await this.arrive();
        next = await inner.next(replacement);
      }
      return next.value;
    } finally {
      if (counted) {
        this.generating--;
        this.releaseWhenAllArrived();
      }
      await inner.return(undefined);
    }
  }

  /** Resolves once every generating sequence waits for its next token. */
  private arrive(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.releaseWhenAllArrived();
    });
  }

  private releaseWhenAllArrived(): void {
    if (this.releaseScheduled || this.waiting.length === 0) return;
    if (this.waiting.length < this.generating) return;
    this.releaseScheduled = true;
    // On the next turn: node-llama-cpp's dispatch loop must first see an empty queue and
    // end, or it would start a batch with the first of the released sequences alone.
    setImmediate(() => {
      this.releaseScheduled = false;
      const released = this.waiting;
      this.waiting = [];
      for (const resolve of released) resolve();
    });
  }
}
