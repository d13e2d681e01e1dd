/**
 * Reads samples out of the Prometheus text exposition format (what `GET /metrics` answers),
 * so tests and tools can check a counter by name and labels without a Prometheus server.
 */

/** One sample line: metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescapeLabel(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
}

/** Every sample of the text, in order; comment (# HELP, # TYPE) and blank lines skipped. */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = sampleLine.exec(line.trim());
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(labelPair)) {
      labels[key as string] = unescapeLabel(value as string);
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/**
 * The value of the sample `name` whose labels include all of `labels` (summed when several
 * match, as a query without the other labels would), or 0 when none does.
 */
export function sampleValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number {
  let total = 0;
  for (const sample of parsePrometheusText(text)) {
    if (sample.name !== name) continue;
    if (Object.entries(labels).every(([k, v]) => sample.labels[k] === v)) total += sample.value;
  }
  return total;
}
