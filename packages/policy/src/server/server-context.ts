/** What every handler needs: the compiled engine, limits and the optional decision log. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { DEFAULT_MAX_INPUT_DEPTH } from "../config.js";
import type { PolicyEngine } from "../engine.js";
import type { DecisionLogger } from "../plugins/decision-logs/decision.js";
import type { ManagementView } from "../plugins/plugin-runtime.js";
import type { BundleScope } from "../store/bundle-scope.js";
import type { PolicyStore } from "../store/policy-store.js";
import type { Evaluations } from "./evaluations.js";

export interface ServerContext {
  readonly engine: PolicyEngine;
  /** Largest accepted request body, in bytes. */
  readonly maxBodyBytes: number;
  /** Bound on one evaluation; 0 means none. */
  readonly evalTimeoutMs: number;
  /** Deepest input document accepted (400 beyond); DEFAULT_MAX_INPUT_DEPTH when absent. */
  readonly maxInputDepth?: number;
  /** Most elements of one collection in a query; the engine's default when absent. */
  readonly maxCollectionSize?: number;
  /** The policy files served by the Policy API (id = file path as loaded). */
  readonly policies?: readonly { readonly file: string; readonly source: string }[];
  /** Present when decision logging is on. */
  readonly decisionLogger?: DecisionLogger;
  /**
   * The writable state behind `engine` and `policies` (Data and Policy API writes). When
   * absent the server makes one from `engine` and `policies` at start.
   */
  readonly store?: PolicyStore;
  /** Bundles loaded at start; their roots are read-only (used when the server makes the store). */
  readonly bundles?: readonly BundleScope[];
  /** Path below `data` that `POST /` answers (OPA's `default_decision`); system/main. */
  readonly defaultDecision?: readonly string[];
  /** Plugin states, status report and configuration (`--config-file`); absent: none. */
  readonly management?: ManagementView;
  /**
   * Where decisions are evaluated (the worker pool, or the main thread). The server makes
   * it at start from `workers`; always present inside handlers.
   */
  readonly evaluations?: Evaluations;
  /** Evaluation worker threads; 0 (the default here) evaluates on the main thread. */
  readonly workers?: number;
}

/** Where a context's decisions are evaluated (always present inside handlers). */
export function evaluationsOf(ctx: ServerContext): Evaluations {
  if (!ctx.evaluations) throw new Error("server context without evaluations");
  return ctx.evaluations;
}

/** The store of a context made by the server (always present inside handlers). */
export function storeOf(ctx: ServerContext): PolicyStore {
  if (!ctx.store) throw new Error("server context without a policy store");
  return ctx.store;
}

/** A parsed request target: the path below the route prefix and the query parameters. */
export interface RequestTarget {
  readonly pathname: string;
  readonly params: URLSearchParams;
  /**
   * Answers an error raised outside the handler's own call (e.g. from a body callback),
   * through the same single error path as a thrown error or a rejected promise.
   */
  readonly fail: (res: ServerResponse, error: unknown) => void;
}

/** A route handler; throws ApiError/RegoError for `error-response.ts` to answer. */
export type Handler = (
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
) => Promise<void> | void;

/** The deepest input document the server accepts. */
export function inputDepthLimit(ctx: ServerContext): number {
  return ctx.maxInputDepth ?? DEFAULT_MAX_INPUT_DEPTH;
}
