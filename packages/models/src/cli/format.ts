// How the CLI prints sizes, ages and tables, as Ollama's CLI does.
/** Decimal byte size as Ollama's CLI prints it: "2.0 GB", "17 GB", "29 MB". */
export function formatBytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  if (i === 0) return `${n} B`;
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** "3 minutes ago", "About an hour ago", "2 days ago"; "4 minutes from now" for future. */
export function formatRelative(date: Date, now = Date.now()): string {
  const diff = date.getTime() - now;
  const future = diff > 0;
  const s = Math.abs(diff) / 1000;
  let text: string;
  if (s < 60) text = "Less than a minute";
  else if (s < 3600) text = `${Math.round(s / 60)} minute${Math.round(s / 60) === 1 ? "" : "s"}`;
  else if (s < 7200) text = "About an hour";
  else if (s < 86400) text = `${Math.round(s / 3600)} hours`;
  else text = `${Math.round(s / 86400)} days`;
  return future ? `${text} from now` : `${text} ago`;
}

/** Left-aligned columns with 4 spaces between them, no borders. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd((widths[i] ?? 0) + 4)))
      .join("")
      .trimEnd();
  return `${[header, ...rows].map(line).join("\n")}\n`;
}

/**
 * A count as Ollama's CLI prints a projector's parameters (its format.HumanNumber):
 * "2B" or "1.5B", "428M" or "595.50M", "86K", or the number itself below a thousand.
 */
export function formatCount(n: number): string {
  const scaled = (v: number, unit: string, digits: number) =>
    `${Number.isInteger(v) ? v.toFixed(0) : v.toFixed(digits)}${unit}`;
  if (n >= 1e9) return scaled(n / 1e9, "B", 1);
  if (n >= 1e6) return scaled(n / 1e6, "M", 2);
  if (n >= 1e3) return `${Math.round(n / 1e3)}K`;
  return String(Math.round(n));
}
