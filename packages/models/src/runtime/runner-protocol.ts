/**
 * Messages between the server and a model's runner process (`runner-process.ts`), sent over
 * Node's IPC channel with the "advanced" (structured clone) serialization. One runner owns
 * one loaded model; every call carries an id so answers and streamed text find their caller.
 */
import { LlmsrvError, type LlmsrvErrorCode, messageOf } from "../errors.js";
import type { BackendReport } from "./gpu-backend.js";
import type { CompletionRequest, LoadSpec } from "./model-runner.js";

/** Server → runner. */
export type RunnerRequest =
  | { type: "load"; spec: LoadSpec; availableMemory: number }
  | { type: "complete"; id: number; slot: number; req: CompletionRequest }
  | { type: "embed"; id: number; texts: string[]; truncate: boolean }
  | { type: "tokenize"; id: number; text: string }
  | { type: "detokenize"; id: number; tokens: number[] }
  /** Answered at once unless the runner's event loop is blocked. */
  | { type: "ping"; id: number }
  | { type: "abort"; id: number }
  | { type: "unload" };

/** The calls that answer with a value (all but load, abort and unload). */
export type RunnerCall = Exclude<Extract<RunnerRequest, { id: number }>, { type: "abort" }>;

/**
 * Runner → server. A load answers with `loaded` (`vramBytes`: the part of `sizeBytes` on the
 * GPU) or `failed` with id 0. `backend` comes once, unasked, when the native library is open.
 */
export type RunnerReply =
  | { type: "backend"; report: BackendReport }
  | { type: "loaded"; sizeBytes: number; vramBytes: number }
  | { type: "text"; id: number; text: string }
  | { type: "done"; id: number; value: unknown }
  | { type: "failed"; id: number; error: WireError };

/** An error as it crosses the process boundary: its code survives, the stack does not. */
export interface WireError {
  code: LlmsrvErrorCode;
  message: string;
}

/** Id of the load call in `failed` replies. */
export const LOAD_CALL_ID = 0;

export function toWireError(e: unknown): WireError {
  if (e instanceof LlmsrvError) return { code: e.code, message: e.message };
  return { code: "internal", message: messageOf(e) };
}

export function fromWireError(e: WireError): LlmsrvError {
  return new LlmsrvError(e.code, e.message);
}
