/**
 * `--explain`: OPA's trace, filtered (notes, fails, full, debug) and printed as
 * `opa eval --explain` prints it: a location column (`file:row`, `query:row`) padded to the
 * widest location plus four, then `| ` once per level of nesting below the event's query,
 * the op and the node (a rule by its path, an expression or query by its source text).
 */
import type { Rule } from "../ast/nodes.js";
import type { TraceEvent, TraceNode } from "./tracer.js";

export const EXPLAIN_MODES = ["notes", "fails", "full", "debug"] as const;
export type ExplainMode = (typeof EXPLAIN_MODES)[number];

/** Policy and query texts by file name, to show nodes as they were written. */
export type SourceTexts = ReadonlyMap<string, string>;

/** `data.<package>.<rule>`: the rule's path up to its first non-string key. */
export function rulePath(rule: Rule): string {
  const parts = ["data", ...rule.module.pkg];
  for (const t of rule.ref) {
    if (t.type !== "scalar" || typeof t.value !== "string") break;
    parts.push(t.value);
  }
  return parts.join(".");
}

/** The source text between two offsets of a file, on one line. */
function sourceSlice(sources: SourceTexts, file: string, start: number, end: number): string {
  const text = sources.get(file);
  if (text === undefined || end <= start || end > text.length) return "";
  return text.slice(start, end).replace(/\s*\n\s*/g, " ");
}

/** How a node is shown in a trace line. */
export function nodeText(node: TraceNode, sources: SourceTexts): string {
  switch (node.kind) {
    case "rule":
      return rulePath(node.rule);
    case "expr": {
      const { loc } = node.expr;
      return sourceSlice(sources, loc.file, loc.start, loc.end) || `<${node.expr.type}>`;
    }
    case "body": {
      const first = node.body[0];
      const last = node.body[node.body.length - 1];
      if (!first || !last) return "";
      return sourceSlice(sources, first.loc.file, first.loc.start, last.loc.end);
    }
  }
}

/**
 * Keeps the events `keep` selects, each preceded by the Enter/Redo events of the queries
 * that led to it (OPA's lineage filter), so a note or failure is shown in its context.
 */
export function lineage(
  events: readonly TraceEvent[],
  keep: (e: TraceEvent) => boolean,
): TraceEvent[] {
  const out: TraceEvent[] = [];
  let entries = new Map<number, TraceEvent>();
  for (const event of events) {
    if (keep(event)) {
      const path: TraceEvent[] = [event];
      let cur = entries.get(event.queryId);
      let prev: TraceEvent | undefined;
      while (cur && cur !== prev) {
        path.push(cur);
        prev = cur;
        cur = entries.get(cur.parentId);
      }
      out.push(...path.reverse());
      entries = new Map();
    }
    if ((event.op === "Enter" || event.op === "Redo") && event.node.kind !== "expr") {
      entries.set(event.queryId, event);
    }
  }
  return out;
}

/** The events an explain mode shows. */
export function explainEvents(events: readonly TraceEvent[], mode: ExplainMode): TraceEvent[] {
  switch (mode) {
    case "notes":
      return lineage(events, (e) => e.op === "Note");
    case "fails":
      return lineage(events, (e) => e.op === "Fail");
    case "full":
    case "debug":
      return [...events];
  }
}

function locationText(event: TraceEvent): string {
  const loc = event.loc;
  if (!loc) return "";
  return `${loc.file === "" ? "query" : loc.file}:${loc.row}`;
}

/** How far an event is indented: Enter (and Redo of a rule or query) sit one level out. */
function levels(event: TraceEvent): number {
  const spaces =
    event.op === "Enter" || (event.op === "Redo" && event.node.kind !== "expr")
      ? event.depth
      : event.depth + 1;
  return Math.max(0, spaces - 1);
}

function eventText(event: TraceEvent, sources: SourceTexts): string {
  const padding = "| ".repeat(levels(event));
  if (event.op === "Note") return `${padding}Note ${JSON.stringify(event.message ?? "")}`;
  const message = event.message === undefined ? "" : ` ${event.message}`;
  return `${padding}${event.op} ${nodeText(event.node, sources)}${message}`;
}

/** The trace as `opa eval --explain` prints it, one line per event. */
export function prettyTrace(events: readonly TraceEvent[], sources: SourceTexts): string {
  const rows = events.map((e) => [locationText(e), eventText(e, sources)] as const);
  const width = Math.max(0, ...rows.map(([loc]) => loc.length)) + 4;
  return rows.map(([loc, text]) => `${loc.padEnd(width)} ${text}\n`).join("");
}

/** The trace as JSON objects (`explanation` in `--format json`). */
export function traceJson(events: readonly TraceEvent[], sources: SourceTexts): unknown[] {
  return events.map((e) => {
    const out: Record<string, unknown> = {
      op: e.op,
      query_id: e.queryId,
      parent_id: e.parentId,
      type: e.node.kind,
      node: nodeText(e.node, sources),
    };
    if (e.loc) out.location = { file: e.loc.file, row: e.loc.row, col: e.loc.col };
    if (e.message !== undefined) out.message = e.message;
    return out;
  });
}
