/**
 * `rego eval` output formats, shaped as `opa eval` prints them: json (the default, keys in
 * the order expressions, bindings and value, text, location), values, bindings, raw, pretty.
 */
import type { QueryResult } from "../engine.js";
import { jsonText } from "../value/json-text.js";
import { toJSON, type Value } from "../value/value.js";

export const EVAL_FORMATS = ["json", "values", "bindings", "pretty", "raw"] as const;
export type EvalFormat = (typeof EVAL_FORMATS)[number];

function bindingsObject(r: QueryResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of r.bindings) out[name] = toJSON(value);
  return out;
}

/** `{"result": [...]}` as opa eval's JSON; `{}` when there are no solutions. */
function asJson(results: QueryResult[]): string {
  if (results.length === 0) return jsonText({}, true);
  const result = results.map((r) => {
    const row: Record<string, unknown> = {
      expressions: r.expressions.map((e) => ({
        value: toJSON(e.value),
        text: e.text,
        location: e.location,
      })),
    };
    if (r.bindings.size > 0) row.bindings = bindingsObject(r);
    return row;
  });
  return jsonText({ result }, true);
}

function compact(v: Value): string {
  return jsonText(toJSON(v)).trimEnd();
}

/** Raw: per solution, expression values joined by spaces; strings unquoted. */
function asRaw(results: QueryResult[]): string {
  return results
    .map(
      (r) =>
        `${r.expressions.map((e) => (typeof e.value === "string" ? e.value : compact(e.value))).join(" ")}\n`,
    )
    .join("");
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = `+${widths.map((w) => "-".repeat(w + 2)).join("+")}+\n`;
  const row = (cells: string[]) =>
    `|${cells.map((c, i) => ` ${c.padEnd(widths[i] as number)} `).join("|")}|\n`;
  return line + row(header) + line + rows.map(row).join("") + line;
}

/** Pretty: a single value as indented JSON, otherwise a table of bindings and expressions. */
function asPretty(results: QueryResult[]): string {
  if (results.length === 0) return "undefined\n";
  const first = results[0] as QueryResult;
  if (results.length === 1 && first.bindings.size === 0) {
    const allBoolean = first.expressions.every((e) => typeof e.value === "boolean");
    if (first.expressions.length === 1 || allBoolean)
      return jsonText(toJSON(first.expressions[0]?.value ?? null), true);
  }
  const names = [...first.bindings.keys()];
  const shown = first.expressions
    .map((e, i) => ({ i, text: e.text }))
    .filter(({ i }) => first.expressions[i]?.value !== true);
  const header = [...names, ...shown.map((s) => s.text)];
  const rows = results.map((r) => [
    ...names.map((n) => compact(r.bindings.get(n) ?? null)),
    ...shown.map((s) => compact(r.expressions[s.i]?.value ?? null)),
  ]);
  return header.length === 0 ? "true\n" : table(header, rows);
}

/** Renders query results in one of the eval formats. */
export function formatEvalResults(results: QueryResult[], format: EvalFormat): string {
  switch (format) {
    case "json":
      return asJson(results);
    case "values":
      return results
        .map((r) =>
          jsonText(
            r.expressions.map((e) => toJSON(e.value)),
            true,
          ),
        )
        .join("");
    case "bindings":
      return results.map((r) => jsonText(bindingsObject(r), true)).join("");
    case "raw":
      return asRaw(results);
    case "pretty":
      return asPretty(results);
  }
}
