// AsyncLock: a FIFO mutex whose waiters can give up.
/**
 * A FIFO mutex whose waiters can give up: a waiter whose signal aborts leaves the line
 * without ever holding the lock.
 */
export class AsyncLock {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `fn` while holding the lock; rejects with `signal.reason` if aborted first. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const previous = this.tail;
    this.tail = previous.then(() => held);
    try {
      await waitOrAbort(previous, signal);
      return await fn();
    } finally {
      release();
    }
  }
}

/** Resolves with `p`, or rejects with the signal's reason as soon as it aborts. */
export function waitOrAbort<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
