/**
 * The evaluation worker's entry (node:worker_threads): holds the served engine, built from
 * the state messages the server sends, and evaluates the jobs that follow them. Messages
 * are handled in the order they were sent, so a job sees the last state sent before it;
 * a job keeps the engine it started with even if a new state arrives while it waits on the
 * network. Answers are batched: every answer ready in one turn of the loop goes in one message.
 */
import { parentPort } from "node:worker_threads";
import { PolicyEngine } from "../engine.js";
import { parseJsonValue } from "../loader/data-document.js";
import { RegoObject, type Value } from "../value/value.js";
import { type EvalJob, runJob } from "./eval-job.js";
import type {
  DataPatchMessage,
  EngineState,
  FromWorker,
  StateMessage,
  ToWorker,
} from "./eval-wire.js";
import { READY, toWire } from "./eval-wire.js";

const port = parentPort;
if (!port) throw new Error("eval-worker.js runs only as a worker thread");

let modules: EngineState["modules"] = [];
let compiled: PolicyEngine | undefined;
let engine: PolicyEngine | undefined;

/** Compiles the modules when they changed, then reads the data into the served engine. */
function applyState(message: StateMessage): void {
  if (message.modules) {
    modules = message.modules;
    const fresh = new PolicyEngine({ ...message.options, checkDataConflicts: false });
    for (const m of modules) fresh.addModule(m.file, m.source, { v0Compatible: m.v0 });
    fresh.compile();
    compiled = fresh;
  }
  if (!compiled) throw new Error("evaluation worker: data before policies");
  engine = compiled.withData(parseJsonValue(message.dataText));
}

/**
 * One array per distinct decision path: every message brings a fresh copy, and the engine
 * caches a path's parsed form by array identity.
 */
const paths = new Map<string, string[]>();
const PATHS_KEPT = 1024;

function internPath(job: EvalJob): EvalJob {
  if (job.kind !== "data" && job.kind !== "value") return job;
  const key = JSON.stringify(job.path);
  let path = paths.get(key);
  if (!path) {
    if (paths.size >= PATHS_KEPT) paths.clear();
    path = job.path;
    paths.set(key, path);
  }
  return path === job.path ? job : { ...job, path };
}

/**
 * The base document with `path` set to `value` (or removed when undefined): objects along
 * the path are copied, everything else shared, so the previous engine keeps its data.
 */
function patched(data: Value, path: readonly string[], value: Value | undefined): Value {
  if (path.length === 0) return value ?? new RegoObject();
  const [key, ...rest] = path as [string, ...string[]];
  const node = data instanceof RegoObject ? data : new RegoObject();
  const copy = RegoObject.fromEntries(node.entries());
  if (rest.length === 0) {
    if (value === undefined) copy.delete(key);
    else copy.set(key, value);
    return copy;
  }
  copy.set(key, patched(node.get(key) ?? new RegoObject(), rest, value));
  return copy;
}

function applyPatch(message: DataPatchMessage): void {
  if (!compiled || !engine) throw new Error("evaluation worker: data before policies");
  const value = message.valueText === undefined ? undefined : parseJsonValue(message.valueText);
  engine = compiled.withData(patched(engine.baseData(), message.path, value));
}

let outbox: FromWorker[] = [];
/** Whether READY was sent. */
let announced = false;

function flush(): void {
  const batch = outbox;
  outbox = [];
  port?.postMessage(JSON.stringify(batch));
}

function reply(answer: FromWorker): void {
  if (outbox.length === 0) setImmediate(flush);
  outbox.push(answer);
}

/** A message: a run of jobs as JSON text, or one state change. */
port.on("message", (message: string | ToWorker) => {
  const messages: ToWorker[] = typeof message === "string" ? JSON.parse(message) : [message];
  for (const m of messages) {
    if (m.type === "state" || m.type === "patch") {
      try {
        if (m.type === "state") applyState(m);
        else applyPatch(m);
        if (!announced) {
          announced = true;
          port?.postMessage(READY);
        }
      } catch (e) {
        // Without a first engine the worker cannot start: dying says so to the pool, which
        // counts it as a start failure (and in the end evaluates on the main thread).
        if (!announced) throw e;
        // The server compiled this state before sending it; failing here is a bug. Jobs
        // answer 500 until the next state rather than the worker dying on every restart.
        engine = undefined;
        process.stderr.write(`evaluation worker: cannot apply state: ${String(e)}\n`);
      }
      continue;
    }
    const current = engine;
    if (!current) {
      reply({ id: m.id, ok: false, error: { type: "other", message: "no policies loaded" } });
      continue;
    }
    runJob(current, internPath(m.job)).then(
      (result) => reply({ id: m.id, ok: true, result }),
      (error: unknown) => reply({ id: m.id, ok: false, error: toWire(error) }),
    );
  }
});
