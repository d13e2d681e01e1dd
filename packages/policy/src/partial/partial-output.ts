/**
 * How partial evaluation results are written: OPA's AST JSON (`rego eval -p -f json`'s
 * `partial`, the compile API's `result`) and the pretty table of `Query N` / `Support N`.
 */
import { type JsonNode, type JsonObject, OpaAstEncoder, RawNumber } from "../ast/opa-json.js";
import type { PartialResult } from "./partial-query.js";
import { bodyText, moduleText } from "./rego-text.js";
import { NO_LOC } from "./terms.js";

/** `{"queries": [...], "support": [...]}`, each left out when empty, as OPA's JSON. */
export function partialJson(result: PartialResult): JsonObject {
  const enc = new OpaAstEncoder("", { locations: false, comments: false });
  const out: JsonObject = {};
  if (result.queries.length > 0)
    out.queries = result.queries.map((q) => (q.length === 0 ? [] : enc.body(q, NO_LOC)));
  if (result.support.length > 0) out.support = result.support.map((m) => enc.module(m));
  return out;
}

/** The table `opa eval -p -f pretty` prints: one row per query and support module. */
export function partialPretty(result: PartialResult): string {
  const rows: [string, string[]][] = [
    ...result.queries.map((q, i): [string, string[]] => [
      `Query ${i + 1}`,
      bodyText(q).split("\n"),
    ]),
    ...result.support.map((m, i): [string, string[]] => [
      `Support ${i + 1}`,
      moduleText(m).replaceAll("\t", "  ").trim().split("\n"),
    ]),
  ];
  // As OPA: no residual query at all reads as undefined (support or not).
  if (result.queries.length === 0) return "undefined\n";
  const w0 = Math.max(...rows.map(([l]) => l.length));
  const w1 = Math.max(...rows.flatMap(([, lines]) => lines.map((l) => l.length)));
  const border = `+${"-".repeat(w0 + 2)}+${"-".repeat(w1 + 2)}+\n`;
  let out = border;
  for (const [label, lines] of rows) {
    lines.forEach((line, i) => {
      out += `| ${(i === 0 ? label : "").padEnd(w0)} | ${line.padEnd(w1)} |\n`;
    });
    out += border;
  }
  return out;
}

/** `opa eval -p -f source`: each query and support module as Rego, under a `#` heading. */
export function partialSource(result: PartialResult): string {
  let out = "";
  result.queries.forEach((q, i) => {
    out += `# Query ${i + 1}\n${bodyText(q)}\n\n`;
  });
  result.support.forEach((m, i) => {
    out += `# Module ${i + 1}\n${moduleText(m)}`;
  });
  return out;
}

/** Compact JSON text of an AST node (numbers as written). */
export function compactAst(node: JsonNode): string {
  if (node instanceof RawNumber) return node.text;
  if (node === null || typeof node !== "object") return JSON.stringify(node);
  if (Array.isArray(node)) return `[${node.map(compactAst).join(",")}]`;
  return `{${Object.entries(node)
    .map(([k, v]) => `${JSON.stringify(k)}:${compactAst(v)}`)
    .join(",")}}`;
}
