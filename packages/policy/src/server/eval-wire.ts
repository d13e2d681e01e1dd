/**
 * The messages between the server and its evaluation workers, and errors as plain data:
 * a worker's error crosses the thread boundary as a `WireError` and is raised again on the
 * main thread as the same kind of error, so `error-response.ts` answers it as if the
 * evaluation had run there.
 */
import type { EngineOptions } from "../engine.js";
import { type Location, RegoError, type RegoErrorCode, RegoErrorList } from "../errors.js";
import { ApiError, type ApiErrorCode, type ApiErrorKind } from "./api-error.js";
import { type EvalJob, JobFailure } from "./eval-job.js";

/** Everything a worker needs to build the served engine. */
export interface EngineState {
  readonly options: EngineOptions;
  readonly modules: readonly { file: string; source: string; v0: boolean }[];
  /** The base document as JSON text (numbers as written). */
  readonly dataText: string;
}

/** A new served state; `modules` and `options` are left out when only the data changed. */
export interface StateMessage {
  readonly type: "state";
  readonly options?: EngineOptions;
  readonly modules?: EngineState["modules"];
  readonly dataText: string;
}

/**
 * A data write: the document at `path` is now `valueText` (JSON text), or gone when it is
 * absent. Sent instead of the whole base document when every parent is an object.
 */
export interface DataPatchMessage {
  readonly type: "patch";
  readonly path: readonly string[];
  readonly valueText?: string;
}

export interface JobMessage {
  readonly type: "job";
  readonly id: number;
  readonly job: EvalJob;
}

/**
 * What the server queues, in order: runs of jobs go as JSON text (eval-batch.ts), state
 * changes one by one.
 */
export type ToWorker = StateMessage | DataPatchMessage | JobMessage;

/** A worker's first message, once it has built its first engine. */
export const READY = "ready";

interface WireRegoError {
  readonly code: string;
  readonly message: string;
  readonly location?: Location;
}

export type WireError =
  | {
      readonly type: "api";
      readonly kind: ApiErrorKind;
      readonly code: ApiErrorCode;
      readonly message: string;
      readonly errors: WireRegoError[];
    }
  | { readonly type: "rego"; readonly error: WireRegoError }
  | { readonly type: "list"; readonly errors: WireRegoError[] }
  | {
      readonly type: "failure";
      readonly error: WireError;
      readonly input: unknown;
      readonly metrics: Record<string, number>;
    }
  | { readonly type: "other"; readonly message: string };

function wireRego(e: RegoError): WireRegoError {
  return e.location
    ? { code: e.code, message: e.message, location: { ...e.location } }
    : { code: e.code, message: e.message };
}

function fromWireRego(e: WireRegoError): RegoError {
  return new RegoError(e.code as RegoErrorCode, e.message, e.location);
}

/** An error as plain data. */
export function toWire(e: unknown): WireError {
  if (e instanceof JobFailure)
    return { type: "failure", error: toWire(e.error), input: e.input, metrics: e.metrics };
  if (e instanceof ApiError)
    return {
      type: "api",
      kind: e.kind,
      code: e.code,
      message: e.message,
      errors: e.errors.map(wireRego),
    };
  if (e instanceof RegoError) return { type: "rego", error: wireRego(e) };
  if (e instanceof RegoErrorList) return { type: "list", errors: e.errors.map(wireRego) };
  return { type: "other", message: e instanceof Error ? e.message : String(e) };
}

/** The error a `WireError` describes. */
export function fromWire(w: WireError): Error {
  switch (w.type) {
    case "failure":
      return new JobFailure(fromWire(w.error), w.input, w.metrics);
    case "api":
      return new ApiError(w.kind, w.code, w.message, w.errors.map(fromWireRego));
    case "rego":
      return fromWireRego(w.error);
    case "list":
      return new RegoErrorList(w.errors.map(fromWireRego));
    case "other":
      return new RegoError("internal_error", w.message);
  }
}
