/**
 * Makes the server's `Evaluations`: the main thread when `workers` is 0, otherwise an
 * `EvalPool` kept in step with the store (every data or policy change is sent to every
 * worker in the turn it is made), which moves to the main thread if workers cannot start.
 */
import type { PolicyEngine } from "../engine.js";
import type { PolicyStore } from "../store/policy-store.js";
import { jsonText } from "../value/json-text.js";
import { RegoObject, toJSON, type Value } from "../value/value.js";
import { valueText } from "./eval-job.js";
import { EvalPool, type EvalPoolOptions } from "./eval-pool.js";
import type { DataPatchMessage, EngineState } from "./eval-wire.js";
import { type EvalOutcome, type Evaluations, InlineEvaluations } from "./evaluations.js";

/** What a worker needs to rebuild `engine`. */
export function engineState(engine: PolicyEngine): EngineState {
  return {
    options: { ...engine.options },
    modules: engine.moduleSources(),
    dataText: jsonText(toJSON(engine.baseData())).trimEnd(),
  };
}

/**
 * The write at `path` as a patch (the document there as JSON text, or none when removed),
 * when every document above it is an object; otherwise undefined (send the whole data).
 */
export function dataPatch(data: Value, path: readonly string[]): DataPatchMessage | undefined {
  let at: Value | undefined = data;
  for (const key of path) {
    if (!(at instanceof RegoObject)) return undefined;
    at = at.get(key);
  }
  if (path.length > 0 && at === undefined) {
    // Removed: its parent must still be an object for the worker to delete the key there.
    let parent: Value | undefined = data;
    for (const key of path.slice(0, -1)) parent = (parent as RegoObject).get(key);
    if (!(parent instanceof RegoObject)) return undefined;
    return { type: "patch", path: [...path] };
  }
  if (at === undefined) return undefined;
  return { type: "patch", path: [...path], valueText: valueText(at) };
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
  /** Told once when workers cannot start and decisions move to the main thread. */
  readonly onFallback?: (reason: string) => void;
  /** Worker start-up settings a test changes to make workers fail (see EvalPoolOptions). */
  readonly workerHooks?: Pick<EvalPoolOptions, "execArgv" | "schedule">;
}

/** The evaluations of a server, and how to stop them. */
export function startEvaluations(settings: EvaluationSettings): Evaluations {
  if (settings.workers <= 0) return new InlineEvaluations(settings.current);
  const { store } = settings;
  const pool = new EvalPool({
    size: settings.workers,
    state: () => engineState(store.engine),
    evalTimeoutMs: settings.evalTimeoutMs,
    onEvaluated: settings.onEvaluated,
    onWorkerLost: settings.onWorkerLost,
    mainThread: settings.current,
    onFallback: settings.onFallback,
    ...settings.workerHooks,
  });
  const unsubscribe = store.onChange((engine, policiesChanged, written) => {
    const patch = policiesChanged || !written ? undefined : dataPatch(engine.baseData(), written);
    if (patch) pool.patchData(patch);
    else pool.update(engineState(engine), policiesChanged);
  });
  return {
    run: (job) => pool.run(job),
    submit: (job, done) => pool.submit(job, done),
    ready: () => pool.ready(),
    started: () => pool.started(),
    close: () => {
      unsubscribe();
      return pool.close();
    },
  };
}
