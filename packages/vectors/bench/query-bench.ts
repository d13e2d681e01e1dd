/**
 * Query latency and recall on synthetic data: exact search (sequential scan) against the
 * halfvec HNSW index, on the same table and the same queries.
 */
import { VectorStore } from "../src/store/vector-store.js";
import { pgliteTarget, type QueryBenchTarget } from "./bench-targets.js";
import { percentile, since } from "./stats.js";
import { ClusteredVectors } from "./synthetic.js";

export interface QueryBenchOptions {
  readonly rows: number;
  readonly dim: number;
  readonly queries: number;
  readonly m: number;
  readonly efConstruction: number;
  readonly efSearch: readonly number[];
  readonly maintenanceWorkMem: string;
}

export interface LatencyLine {
  readonly label: string;
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  /** Mean share of the exact top 3 found (1 for exact search itself). */
  readonly recall: number;
}

export interface QueryBenchResult {
  readonly options: QueryBenchOptions;
  readonly versions: string;
  readonly insertSeconds: number;
  readonly buildSeconds: number;
  readonly lines: LatencyLine[];
  readonly plan: string;
}

type Log = (line: string) => void;

async function fill(store: VectorStore, generator: ClusteredVectors, rows: number, log: Log) {
  const perTransaction = 500;
  for (let start = 0; start < rows; start += perTransaction) {
    await store.client.query("BEGIN");
    for (let i = start; i < Math.min(rows, start + perTransaction); i++) {
      await store.add({
        id: String(11 + i),
        source: `synthetic ${i}`,
        content: `row ${i}`,
        embedding: generator.next(),
      });
    }
    await store.client.query("COMMIT");
    if ((start / perTransaction) % 10 === 0)
      log(`  inserted ${Math.min(rows, start + perTransaction)}/${rows}`);
  }
}

async function measure(
  label: string,
  queries: readonly number[][],
  run: (q: number[]) => Promise<string[]>,
  truth?: readonly string[][],
): Promise<{ line: LatencyLine; answers: string[][] }> {
  for (const q of queries.slice(0, 3)) await run(q); // warm caches and plans
  const times: number[] = [];
  const answers: string[][] = [];
  for (const q of queries) {
    const start = performance.now();
    answers.push(await run(q));
    times.push(since(start));
  }
  let found = 0;
  answers.forEach((ids, i) => {
    const expected = new Set(truth ? truth[i] : ids);
    found += ids.filter((id) => expected.has(id)).length / Math.max(1, expected.size);
  });
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return {
    line: {
      label,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      mean,
      recall: found / answers.length,
    },
    answers,
  };
}

/**
 * Fills the target (in-memory PGlite by default) with synthetic rows and measures exact and
 * indexed queries.
 */
export async function runQueryBench(
  options: QueryBenchOptions,
  log: Log,
  target: QueryBenchTarget = pgliteTarget,
): Promise<QueryBenchResult> {
  const db = await target.open();
  const store = new VectorStore(db.session(true), options.dim);
  try {
    await store.setup();
    const {
      rows: [v],
    } = await store.client.query<{ pg: string; vector: string }>(
      "SELECT current_setting('server_version') AS pg, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vector",
    );
    const generator = new ClusteredVectors(options.dim, 200, 0.6, 20_48);
    log(`inserting ${options.rows} rows of dimension ${options.dim}`);
    let start = performance.now();
    await fill(store, generator, options.rows, log);
    const insertSeconds = since(start) / 1000;
    const queries = Array.from({ length: options.queries }, () => generator.next());
    const ids = async (s: VectorStore, q: number[], mode?: "exact") =>
      (await s.query(q, mode)).map((h) => h.doc_id);

    log(`exact search, ${options.queries} queries`);
    const exact = await measure("exact (sequential scan)", queries, (q) => ids(store, q, "exact"));
    log(`building HNSW m=${options.m} ef_construction=${options.efConstruction}`);
    await store.client.query(`SET maintenance_work_mem = '${options.maintenanceWorkMem}'`);
    start = performance.now();
    await store.buildIndex({ m: options.m, efConstruction: options.efConstruction });
    const buildSeconds = since(start) / 1000;
    log(`  built in ${buildSeconds.toFixed(1)} s`);
    const lines = [exact.line];
    for (const ef of options.efSearch) {
      const indexed = new VectorStore(db.session(false), options.dim, ef);
      const result = await measure(
        `HNSW halfvec, ef_search=${ef}`,
        queries,
        (q) => ids(indexed, q),
        exact.answers,
      );
      lines.push(result.line);
      log(`  ef_search=${ef}: recall@3 ${result.line.recall.toFixed(3)}`);
    }
    const planStore = new VectorStore(db.session(false), options.dim, options.efSearch[0]);
    const plan = await planStore.explainQuery(queries[0] as number[]);
    return {
      options,
      versions: `PostgreSQL ${v?.pg} (${target.label}), pgvector ${v?.vector}`,
      insertSeconds,
      buildSeconds,
      lines,
      plan,
    };
  } finally {
    await store.close();
  }
}
