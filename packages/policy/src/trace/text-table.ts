/**
 * Tables as OPA's CLI draws them (its table writer): `+---+` rules, upper-case headers
 * centred in their column, cells left-aligned, one space of padding each side.
 */

function centre(text: string, width: number): string {
  const left = Math.floor((width - text.length) / 2);
  return " ".repeat(left) + text + " ".repeat(width - text.length - left);
}

/** Renders a table; `header` is upper-cased as OPA's writer does (none when empty). */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = header.map((h) => h.toUpperCase());
  const columns = Math.max(head.length, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) =>
    Math.max((head[i] ?? "").length, ...rows.map((r) => (r[i] ?? "").length)),
  );
  const rule = `+${widths.map((w) => "-".repeat(w + 2)).join("+")}+\n`;
  const headLine =
    head.length === 0
      ? ""
      : `|${widths.map((w, i) => ` ${centre(head[i] ?? "", w)} `).join("|")}|\n${rule}`;
  const body = rows
    .map((r) => `|${widths.map((w, i) => ` ${(r[i] ?? "").padEnd(w)} `).join("|")}|\n`)
    .join("");
  return rule + headLine + body + rule;
}

/**
 * A duration as Go's time.Duration prints it: `850ns`, `12.5µs`, `3.004ms`, `1.5s`
 * (every significant digit, trailing zeros dropped).
 */
export function goDuration(ns: number): string {
  const n = Math.max(0, Math.round(ns));
  if (n === 0) return "0s";
  if (n < 1_000) return `${n}ns`;
  const [unit, scale] =
    n < 1_000_000 ? ["µs", 1_000] : n < 1_000_000_000 ? ["ms", 1_000_000] : ["s", 1_000_000_000];
  const whole = Math.floor(n / scale);
  const frac = String(n % scale)
    .padStart(String(scale).length - 1, "0")
    .replace(/0+$/, "");
  return `${whole}${frac ? `.${frac}` : ""}${unit}`;
}
