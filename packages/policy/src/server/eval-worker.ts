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
import { type AnswerRecord, errorRecord, JobDecoder, resultRecord } from "./eval-batch.js";
import { runJob } from "./eval-job.js";
import type { DataPatchMessage, EngineState, StateMessage } from "./eval-wire.js";
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

const decoder = new JobDecoder();
let outbox: AnswerRecord[] = [];
/** Whether READY was sent. */
let announced = false;

function flush(): void {
  const batch = outbox;
  outbox = [];
  port?.postMessage(JSON.stringify(batch));
}

function reply(answer: AnswerRecord): void {
  if (outbox.length === 0) setImmediate(flush);
  outbox.push(answer);
}

/** A state change (a new engine, or a data write). */
function applyChange(m: StateMessage | DataPatchMessage): void {
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
}

/** A message: a run of jobs as JSON text (eval-batch.ts), or one state change. */
port.on("message", (message: string | StateMessage | DataPatchMessage) => {
  if (typeof message !== "string") {
    applyChange(message);
    return;
  }
  for (const { id, job } of decoder.decode(message)) {
    const current = engine;
    if (!current) {
      reply(errorRecord(id, { type: "other", message: "no policies loaded" }));
      continue;
    }
    runJob(current, job).then(
      (result) => reply(resultRecord(id, result)),
      (error: unknown) => reply(errorRecord(id, toWire(error))),
    );
  }
});
