// The native calls on one llama.cpp context, one at a time in the order they were asked for.
/**
 * The calls that use one model's llama.cpp context (prompt parts, generation steps), run one
 * at a time in the order asked for. Each waits here rather than on a libuv thread blocked on
 * the context's lock: the pool has four threads, and a step queued behind blocked prompt
 * evaluations would wait for all of them. In order, a generation step asked for while a long
 * prompt is evaluated in parts runs between two parts.
 */
export class ContextTurns {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `call` after every call asked for before it has settled. */
  run<T>(call: () => Promise<T>): Promise<T> {
    const result = this.tail.then(call, call);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
