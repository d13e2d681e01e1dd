/**
 * `rego eval --partial` output: `{"partial": {"queries", "support"}}` in OPA's AST JSON
 * (indented, `{}` inside when the query never holds), the pretty table, or Rego source.
 */

import { stringifyAst } from "../ast/opa-json.js";
import { partialJson, partialPretty, partialSource } from "../partial/partial-output.js";
import type { PartialResult } from "../partial/partial-query.js";

export function formatPartial(result: PartialResult, format: string): string {
  if (format === "pretty") return partialPretty(result);
  if (format === "source") return partialSource(result);
  return `${stringifyAst({ partial: partialJson(result) })}\n`;
}
