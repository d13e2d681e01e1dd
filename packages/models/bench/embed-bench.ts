// Embedding throughput through /api/embed: one text per request against batched requests.
import { Agent, request } from "node:http";

const SUBJECTS = [
  "A sailor",
  "A young woman",
  "An old clerk",
  "Two brothers",
  "A girl",
  "A doctor",
];
const VERBS = ["joins", "leaves", "remembers", "searches for", "defends", "rebuilds"];
const OBJECTS = [
  "a whaling voyage far from home",
  "the small town where she grew up",
  "a forbidden love affair in a grey city",
  "the father who once left them behind",
  "a house full of letters nobody read",
  "the island where the storm began",
];

/**
 * `count` one-sentence summaries of about twenty tokens, like the vector store's dataset, all
 * different (no cache can answer a later one).
 */
export function embedTexts(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const s = SUBJECTS[i % SUBJECTS.length];
    const v = VERBS[Math.floor(i / SUBJECTS.length) % VERBS.length];
    const o = OBJECTS[(i * 5) % OBJECTS.length];
    return `${s} ${v} ${o}, and learns what it cost in year ${1800 + i}.`;
  });
}

const agent = new Agent({ keepAlive: true });

function embed(url: string, model: string, input: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/embed`,
      { method: "POST", agent, headers: { "Content-Type": "application/json" } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
            embeddings?: number[][];
            error?: string;
          };
          if (body.embeddings?.length === input.length) resolve();
          else reject(new Error(`embed failed: ${body.error ?? res.statusCode}`));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ model, input }));
  });
}

/** Rows per second embedding `texts` in requests of `batch` texts, one request at a time. */
export async function embedRowsPerSecond(
  url: string,
  model: string,
  texts: string[],
  batch: number,
): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < texts.length; i += batch) await embed(url, model, texts.slice(i, i + batch));
  return (texts.length * 1000) / (performance.now() - start);
}
