/**
 * Rego source text of a value, as OPA's term printer writes it: used by `sprintf("%v")`,
 * `print`, and error messages. Sets print as `{1, 2}` and the empty set as `set()`.
 */
import { DecimalNumber, formatNumber } from "./number.js";
import { RegoSet, type Value } from "./value.js";

export function formatValue(v: Value): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
    case "bigint":
      return formatNumber(v);
    case "string":
      return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(formatValue).join(", ")}]`;
  if (v instanceof DecimalNumber) return v.text;
  if (v instanceof RegoSet) {
    return v.size === 0 ? "set()" : `{${v.sorted().map(formatValue).join(", ")}}`;
  }
  const parts = v.sortedEntries().map(([k, x]) => `${formatValue(k)}: ${formatValue(x)}`);
  return `{${parts.join(", ")}}`;
}
