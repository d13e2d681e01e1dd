/** fmt's `%v` of Go values, and fmt.Sprint / fmt.Sprintln over them. */
import { formatFloat } from "../strconv/float.js";
import { GoFloat, GoNamed, GoStruct, kindOf, underlying } from "./value.js";

/** Map keys in Go's printing order (sorted). */
export function sortedKeys(m: object): string[] {
  return Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** fmt's `%v` of a value (`top`: the operand itself, not an element inside it). */
export function formatValue(v: unknown, top = true): string {
  if (v instanceof GoStruct || v instanceof GoNamed) {
    if (v.type.string) return v.type.string(v);
  }
  const u = underlying(v);
  if (u === undefined || u === null) return "<nil>";
  if (typeof u === "string") return u;
  if (typeof u === "boolean") return String(u);
  if (typeof u === "number") return Number.isInteger(u) ? String(u) : formatFloat(u);
  if (u instanceof GoFloat) return formatFloat(u.value);
  if (Array.isArray(u) || u instanceof Uint8Array)
    return `[${Array.from(u as ArrayLike<unknown>, (e) => formatValue(e, false)).join(" ")}]`;
  if (u instanceof GoStruct) {
    const body = (u.type.fields ?? []).map((f) => formatValue(u.fields[f.name], false)).join(" ");
    return `${u.type.pointer && top ? "&" : ""}{${body}}`;
  }
  const m = u as Record<string, unknown>;
  return `map[${sortedKeys(m)
    .map((k) => `${k}:${formatValue(m[k], false)}`)
    .join(" ")}]`;
}

/**
 * fmt.Sprint: operands printed with `%v`, a space between two that are not strings (of any
 * string kind: a named string type such as json.Number counts as one).
 */
export function sprint(args: readonly unknown[]): string {
  let out = "";
  args.forEach((a, i) => {
    const isString = kindOf(a) === "string";
    const prevString = i > 0 && kindOf(args[i - 1]) === "string";
    if (i > 0 && !isString && !prevString) out += " ";
    out += formatValue(a);
  });
  return out;
}

/** fmt.Sprintln: operands with spaces between, then a newline. */
export function sprintln(args: readonly unknown[]): string {
  return `${args.map((a) => formatValue(a)).join(" ")}\n`;
}
