/**
 * Every SQL statement of the store. Values always travel as `$n` parameters; the only text
 * spliced in is the dimension D, a validated integer, because type modifiers such as
 * `vector(2048)` cannot be parameters.
 */

/** Name of the approximate (HNSW) index that `vectors index` builds. */
export const indexName = "docs_vector_embedding_hnsw";

/** HNSW on `vector` accepts at most this many dimensions; above it the index uses halfvec. */
export const maxVectorIndexDims = 2000;

function dimension(dim: number): number {
  if (!Number.isInteger(dim) || dim < 1 || dim > 16000) {
    throw new RangeError(`embedding dimension must be an integer from 1 to 16000, got ${dim}`);
  }
  return dim;
}

export const createExtension = "CREATE EXTENSION IF NOT EXISTS vector";

export function createTable(dim: number): string {
  return (
    "CREATE TABLE IF NOT EXISTS docs_vector (doc_id text PRIMARY KEY, doc_source text, " +
    `doc_content text, doc_embedding vector(${dimension(dim)}))`
  );
}

/** One row: whether the table exists and, if so, the declared dimension of doc_embedding. */
export const tableShape =
  "SELECT to_regclass('docs_vector') IS NOT NULL AS present, " +
  "(SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = to_regclass('docs_vector') " +
  "AND a.attname = 'doc_embedding' AND NOT a.attisdropped) AS dim";

export const insertRow =
  "INSERT INTO docs_vector (doc_id, doc_source, doc_content, doc_embedding) " +
  "VALUES ($1, $2, $3, $4::vector)";

export const countRows = "SELECT count(*)::int AS n FROM docs_vector";

export const clearRows = "DELETE FROM docs_vector";

/** The largest numeric doc_id, as text (bigint travels as a string through `pg`). */
export const maxNumericId =
  "SELECT max(doc_id::numeric)::text AS max FROM docs_vector WHERE doc_id ~ '^[0-9]{1,30}$'";

export const dropTable = "DROP TABLE IF EXISTS docs_vector";

export const findIndex =
  "SELECT indexdef FROM pg_indexes WHERE tablename = 'docs_vector' AND indexname = $1";

export const setEfSearch = "SELECT set_config('hnsw.ef_search', $1, false)";

/** The expression the index is built on and queries order by: halfvec above 2000 dims. */
export function indexedExpression(dim: number): { column: string; param: string; ops: string } {
  const d = dimension(dim);
  return d > maxVectorIndexDims
    ? {
        column: `(doc_embedding::halfvec(${d}))`,
        param: `$1::halfvec(${d})`,
        ops: "halfvec_l2_ops",
      }
    : { column: "doc_embedding", param: "$1::vector", ops: "vector_l2_ops" };
}

export function createIndex(dim: number, m: number, efConstruction: number): string {
  const { column, ops } = indexedExpression(dim);
  if (!Number.isInteger(m) || !Number.isInteger(efConstruction)) {
    throw new RangeError("HNSW m and ef_construction must be integers");
  }
  return (
    `CREATE INDEX IF NOT EXISTS ${indexName} ON docs_vector USING hnsw (${column} ${ops}) ` +
    `WITH (m = ${m}, ef_construction = ${efConstruction})`
  );
}

const selectNeighbours =
  "SELECT doc_id, doc_source, doc_content, doc_embedding <-> $1::vector AS distance FROM docs_vector";

/** Exact nearest three: a scan over every row ordered by Euclidean distance. */
export const nearestExact = `${selectNeighbours} ORDER BY doc_embedding <-> $1::vector LIMIT 3`;

/**
 * Nearest three through the index: orders by the indexed expression so the planner can use it,
 * and still reports the exact distance of each hit.
 */
export function nearestIndexed(dim: number): string {
  const { column, param } = indexedExpression(dim);
  const order = column.startsWith("(") ? column.slice(1, -1) : column;
  return `${selectNeighbours} ORDER BY ${order} <-> ${param} LIMIT 3`;
}
