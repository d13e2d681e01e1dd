/**
 * Decision logging: with it on, each decision gets a UUIDv4 `decision_id` (returned to the
 * client) and one JSON line on the sink (stdout in `rego run`), shaped like OPA's console
 * decision logger so that existing log pipelines can read it.
 */
import { randomUUID } from "node:crypto";
import { jsonText } from "./json-text.js";

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
}

/** Records decisions; `record` returns the new decision's id. */
export interface DecisionLogger {
  record(decision: Decision): string;
}

/**
 * A decision logger writing one JSON line per decision to `write`. `labels` identify this
 * server instance in every line (OPA sends `id` and `version`); the id defaults to a UUID
 * drawn once per logger.
 */
export function consoleDecisionLogger(
  write: (line: string) => void,
  labels: Record<string, string> = {},
): DecisionLogger {
  let requestId = 0;
  const instance = { id: randomUUID(), ...labels };
  return {
    record(d: Decision): string {
      const decisionId = randomUUID();
      requestId++;
      const now = new Date().toISOString();
      const line: Record<string, unknown> = {
        decision_id: decisionId,
        input: d.input,
        labels: instance,
        level: "info",
        metrics: d.metrics,
        msg: "Decision Log",
        path: d.path,
        req_id: requestId,
        requested_by: d.requestedBy,
        result: d.result,
        time: now,
        timestamp: now,
        type: "openpolicyagent.org/decision_logs",
      };
      if (d.error) line.error = d.error;
      write(jsonText(line));
      return decisionId;
    },
  };
}
