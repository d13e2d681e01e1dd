/** Bounded concurrency: at most `limit` tasks run at once, the rest wait in order. */

/** Runs a task when a slot is free; the returned promise settles with the task. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/** Creates a limiter that lets at most `limit` tasks run at the same time. */
export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError("limit must be >= 1");
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
