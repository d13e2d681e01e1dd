/**
 * One decision log event with OPA's fields (EventV1), its JSON text in OPA's field order, and
 * the document the mask and drop rules see as `input`.
 */
import { jsonText } from "../../value/json-text.js";
import { fromJSON, type Value } from "../../value/value.js";

/** `request_context` of an event: the configured request headers that were present. */
export interface RequestContext {
  http: { headers: Record<string, string[]> };
}

export interface DecisionEvent {
  labels: Record<string, string>;
  decision_id: string;
  bundles?: Record<string, { revision?: string }>;
  path?: string;
  /** Undefined: no input given (or the whole input erased). */
  input?: unknown;
  /** Undefined: the decision was undefined (or the whole result erased). */
  result?: unknown;
  erased?: string[];
  masked?: string[];
  error?: unknown;
  requested_by?: string;
  /** RFC 3339 time of the decision. */
  timestamp: string;
  metrics?: Record<string, number>;
  req_id?: number;
  request_context?: RequestContext;
}

function nonEmpty<T extends object>(x: T | undefined): x is T {
  return x !== undefined && Object.keys(x).length > 0;
}

/**
 * The event as plain JSON data in the order OPA's encoder writes the fields, leaving out
 * what OPA omits when empty.
 */
export function eventData(e: DecisionEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { labels: e.labels, decision_id: e.decision_id };
  if (nonEmpty(e.bundles)) out.bundles = e.bundles;
  if (e.path) out.path = e.path;
  if (e.input !== undefined) out.input = e.input;
  if (e.result !== undefined) out.result = e.result;
  if (e.erased?.length) out.erased = e.erased;
  if (e.masked?.length) out.masked = e.masked;
  if (e.error !== undefined) out.error = e.error;
  if (e.requested_by) out.requested_by = e.requested_by;
  out.timestamp = e.timestamp;
  if (nonEmpty(e.metrics)) out.metrics = e.metrics;
  if (e.req_id) out.req_id = e.req_id;
  if (e.request_context) out.request_context = e.request_context;
  return out;
}

/** The event's compact JSON text (no trailing newline). */
export function eventJSON(e: DecisionEvent): string {
  return jsonText(eventData(e)).slice(0, -1);
}

/**
 * What the mask and drop policies get as input. As in OPA it is taken before metrics and
 * the error are attached, and it never holds the request context.
 */
export function ruleInput(e: DecisionEvent): Value {
  const doc: Record<string, unknown> = { labels: e.labels, decision_id: e.decision_id };
  if (nonEmpty(e.bundles)) doc.bundles = e.bundles;
  if (e.path) doc.path = e.path;
  if (e.input !== undefined) doc.input = e.input;
  if (e.result !== undefined) doc.result = e.result;
  if (e.requested_by) doc.requested_by = e.requested_by;
  doc.timestamp = e.timestamp;
  if (e.req_id) doc.req_id = e.req_id;
  return fromJSON(doc);
}

/**
 * A time (milliseconds since the epoch, fractions kept to the microsecond) as Go's
 * RFC3339Nano writes it: fraction digits without trailing zeros, none for whole seconds.
 */
export function rfc3339(epochMs: number): string {
  const whole = Math.floor(epochMs);
  const micros = Math.floor((epochMs - whole) * 1000);
  const iso = new Date(whole).toISOString();
  const digits = `${iso.slice(0, -1)}${String(micros).padStart(3, "0")}`;
  return `${digits.replace(/\.?0+$/, "")}Z`;
}

/**
 * Now, from the wall clock (milliseconds). The monotonic clock would give microseconds but
 * drifts from the wall clock over a long-running server's life.
 */
export function nowMs(): number {
  return Date.now();
}
