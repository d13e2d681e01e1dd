/**
 * The console form of a decision event (`decision_logs.console: true`): one JSON line with
 * the event's fields plus OPA's log fields, keys sorted as OPA's JSON log formatter writes
 * them, ending in a newline (the sink writes lines as they come).
 */
import { jsonText } from "../../value/json-text.js";
import { type DecisionEvent, eventData } from "./decision-event.js";

export function consoleLine(event: DecisionEvent, now: Date): string {
  const fields: Record<string, unknown> = {
    ...eventData(event),
    level: "info",
    msg: "Decision Log",
    time: now.toISOString(),
    type: "openpolicyagent.org/decision_logs",
  };
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(fields).sort()) sorted[key] = fields[key];
  return jsonText(sorted);
}
