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
 *
 * They are released in ascending sequence id, so their tokens enter the batch in that order:
 * llama.cpp (per-sequence KV streams, as node-llama-cpp sets up a context) splits a batch
 * into micro-batches of sequences whose ids follow each other in batch order, and computes
 * the model's graph once per micro-batch. Released as their samples came back, four
 * sequences took two to four graph computations per token instead of one.
 */
export class DecodePacer {
  /** Paced sequences between their first generated token and the end of their generation. */
  private generating = 0;
  private waiting: Array<{ sequenceId: number; resume: () => void }> = [];
  private releaseScheduled = false;

  /**
   * Wraps `sequence.evaluate` so that its generations are paced; returns the sequence.
   * `sequenceId`: its id in llama.cpp, which node-llama-cpp does not expose: the n-th
   * `getSequence()` of a fresh context gets id n.
   */
  pace(sequence: LlamaContextSequence, sequenceId: number): LlamaContextSequence {
    const evaluate: Evaluate = sequence.evaluate.bind(sequence);
    sequence.evaluate = ((tokens, options) =>
      this.paced(sequenceId, evaluate(tokens, options))) as Evaluate;
    return sequence;
  }

  private async *paced(sequenceId: number, inner: TokenGenerator): TokenGenerator {
    let counted = false;
    try {
      // The first token follows the prompt's evaluation, which is not held: a long prompt
      // must not stall the sequences already generating.
      let next = await inner.next();
      this.generating++;
      counted = true;
      while (!next.done) {
        const replacement = yield next.value;
        if (this.generating > 1) await this.arrive(sequenceId);
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
  private arrive(sequenceId: number): Promise<void> {
    return new Promise<void>((resume) => {
      this.waiting.push({ sequenceId, resume });
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
      const released = this.waiting.sort((a, b) => a.sequenceId - b.sequenceId);
      this.waiting = [];
      for (const { resume } of released) resume();
    });
  }
}
