/**
 * `rego eval --partial` output: `{"partial": {"queries", "support"}}` in OPA's AST JSON
 * (indented, `{}` inside when the query never holds), or the pretty table.
 */

import { partialJson, partialPretty } from "../partial/partial-output.js";
import type { PartialResult } from "../partial/partial-query.js";
import { stringifyAst } from "./opa-ast-json.js";

export function formatPartial(result: PartialResult, format: "json" | "pretty" | string): string {
  if (format === "pretty") return partialPretty(result);
  return `${stringifyAst({ partial: partialJson(result) })}\n`;
}
