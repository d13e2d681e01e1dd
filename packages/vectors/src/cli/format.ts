/** Text shown to people: the nearest-documents table and the load summary. */
import type { LoadSummary } from "../loader/load.js";
import type { Neighbour } from "../store/vector-store.js";

/** Longest cell shown in the table; `--json` carries the full text. */
const maxCell = 60;

/** Makes a cell one line: control characters escaped, long text shortened. */
function cell(text: string): string {
  const flat = text.replace(/\r/g, "\\r").replace(/\n/g, "\\n").replace(/\t/g, "\\t");
  return flat.length > maxCell ? `${flat.slice(0, maxCell - 1)}…` : flat;
}

/** The neighbours as an aligned table, nearest first. */
export function formatNeighbourTable(rows: readonly Neighbour[]): string {
  const header = ["doc_id", "doc_source", "doc_content", "distance"];
  const body = rows.map((r) => [
    cell(r.doc_id),
    cell(r.doc_source ?? ""),
    cell(r.doc_content ?? ""),
    r.distance.toFixed(6),
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...body.map((row) => (row[i] ?? "").length)),
  );
  const line = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return `${[line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n")}\n`;
}

/** The summary printed after `vectors load`. */
export function formatLoadSummary(s: LoadSummary): string {
  const lines = [`dataset: ${s.dataset}`];
  if (s.store) lines.push(`store: ${s.store}`);
  if (s.mode === "appended")
    lines.push(`mode: appended to ${s.previousRows} existing row(s) (--append)`);
  else if (s.mode === "replaced")
    lines.push(`mode: replaced; the new rows took the place of the ${s.previousRows} old row(s)`);
  else
    lines.push(
      `mode: nothing stored, so the ${s.previousRows} existing row(s) were left unchanged`,
    );
  lines.push(`stored: ${s.stored} of ${s.dataRows} data row(s)`);
  if (s.alreadyStored > 0) {
    lines.push(`already stored: ${s.alreadyStored} (same title and summary; not stored again)`);
  }
  lines.push(s.firstId ? `ids: ${s.firstId}..${s.lastId}` : "ids: none");
  lines.push(`skipped: ${s.skipped.length}`);
  for (const row of s.skipped) {
    const title = row.title ? ` "${cell(row.title)}"` : "";
    lines.push(`  line ${row.line}${title}: ${row.reason}`);
  }
  const seconds = s.elapsedMs / 1000;
  const rate = seconds > 0 ? (s.stored / seconds).toFixed(1) : "-";
  lines.push(
    `time: ${seconds.toFixed(1)} s (${rate} rows/s, ${s.embedRequests} embeddings request(s))`,
  );
  return `${lines.join("\n")}\n`;
}
