/**
 * Makes the server's `Evaluations`: the main thread when `workers` is 0, otherwise an
 * `EvalPool` kept in step with the store (every data or policy change is sent to every
 * worker in the turn it is made).
 */
import type { PolicyEngine } from "../engine.js";
import { toJSON } from "../value/value.js";
import { type EvalOutcome, EvalPool, type Evaluations, InlineEvaluations } from "./eval-pool.js";
import type { EngineState } from "./eval-wire.js";
import { jsonText } from "./json-text.js";
import type { PolicyStore } from "./policy-store.js";

/** What a worker needs to rebuild `engine`. */
export function engineState(engine: PolicyEngine): EngineState {
  return {
    options: { ...engine.options },
    modules: engine.moduleSources(),
    dataText: jsonText(toJSON(engine.baseData())).trimEnd(),
  };
}

export interface EvaluationSettings {
  /** Worker threads; 0 evaluates on the main thread. */
  readonly workers: number;
  readonly store: PolicyStore;
  /** The engine inline evaluations use (the store's, seen through the metrics). */
  readonly current: () => PolicyEngine;
  readonly evalTimeoutMs: number;
  readonly onEvaluated?: (outcome: EvalOutcome, seconds: number) => void;
  readonly onWorkerLost?: (reason: string) => void;
}

/** The evaluations of a server, and how to stop them. */
export function startEvaluations(settings: EvaluationSettings): Evaluations {
  if (settings.workers <= 0) return new InlineEvaluations(settings.current);
  const { store } = settings;
  const pool = new EvalPool({
    size: settings.workers,
    state: engineState(store.engine),
    evalTimeoutMs: settings.evalTimeoutMs,
    onEvaluated: settings.onEvaluated,
    onWorkerLost: settings.onWorkerLost,
  });
  const unsubscribe = store.onChange((engine, policiesChanged) =>
    pool.update(engineState(engine), policiesChanged),
  );
  return {
    run: (job) => pool.run(job),
    alive: () => pool.alive(),
    close: () => {
      unsubscribe();
      return pool.close();
    },
  };
}
