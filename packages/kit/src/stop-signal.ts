/** stopSignal: the one way a Quintet process turns SIGINT/SIGTERM into an AbortSignal. */

/** The signals that ask a process to stop: Ctrl-C, and what launchers and `kill` send. */
export const stopSignalNames = ["SIGINT", "SIGTERM"] as const;

/** What a second SIGINT/SIGTERM does once the first has aborted the signal. */
export type SecondSignal = "exits" | "ignored";

export interface StopSignalOptions {
  /**
   * `"exits"` (the default): the first signal stops listening, so the next one gets Node's
   * default action and ends the process at once (Ctrl-C twice gives up on a clean stop).
   * `"ignored"`: listening goes on and later signals change nothing, so a launcher finishes
   * stopping its children and a server its grace period.
   */
  readonly secondSignal?: SecondSignal;
}

/**
 * An AbortSignal aborted on the first SIGINT or SIGTERM, with the signal's name
 * (`"SIGINT"`, `"SIGTERM"`) as its `reason`.
 */
export function stopSignal(options: StopSignalOptions = {}): AbortSignal {
  const controller = new AbortController();
  const keepListening = options.secondSignal === "ignored";
  const listeners = stopSignalNames.map((name) => {
    const listener = () => {
      if (!keepListening) {
        for (const [other, l] of listeners) process.removeListener(other, l);
      }
      if (!controller.signal.aborted) controller.abort(name);
    };
    return [name, listener] as const;
  });
  for (const [name, listener] of listeners) process.on(name, listener);
  return controller.signal;
}

/** Resolves with `signal.reason` once it aborts (at once if it already has). */
export function whenAborted(signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason);
  return new Promise((resolve) =>
    signal.addEventListener("abort", () => resolve(signal.reason), { once: true }),
  );
}
