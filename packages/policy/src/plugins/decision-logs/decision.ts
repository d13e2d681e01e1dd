/**
 * What the server hands a decision logger: each logged decision gets a `decision_id`
 * (returned to the client). The logger is OPA's decision_logs plugin
 * (src/plugins/decision-logs/): console lines and uploads.
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
