/**
 * Decision logging: with it on, each decision gets a UUIDv4 `decision_id` (returned to the
 * client) and one JSON line on the sink (stdout in `rego run`), shaped like OPA's console
 * decision logger so that existing log pipelines can read it.
 */
import type { IncomingHttpHeaders } from "node:http";

/** One decision, as the data handler saw it. */
export interface Decision {
  /** Slash path below /v1/data, e.g. "limits" ("" for the whole of data). */
  path: string;
  /** The input document as plain JSON, or undefined when none was given. */
  input: unknown;
  /** The result as plain JSON, or undefined when the document was undefined. */
  result: unknown;
  /** Timers of this request (nanoseconds). */
  metrics: Record<string, number>;
  /** Remote address of the client. */
  requestedBy: string;
  /** The error that ended the evaluation, if any. */
  error?: { code: string; message: string };
  /** The request's headers (`decision_logs.request_context.http.headers` picks some). */
  headers?: IncomingHttpHeaders;
}

/** Records decisions; `record` returns the new decision's id. */
export interface DecisionLogger {
  record(decision: Decision): string;
}
