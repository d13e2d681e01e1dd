/**
 * Every SQL statement of the store. Values always travel as `$n` parameters; the only text
 * spliced in is the dimension D (a validated integer, because type modifiers such as
 * `vector(2048)` cannot be parameters) and table/index names from the fixed set below.
 */

/** The table the spec names. */
export const mainTable = "docs_vector";
/** Where a replace load writes until it is complete; then it is swapped in (see table-swap.ts). */
export const stagingTable = "docs_vector_load";
export type TableName = typeof mainTable | typeof stagingTable;

/** Distances pgvector indexes with HNSW: Euclidean, cosine, negative inner product. */
export type Distance = "l2" | "cosine" | "ip";
export const distances: readonly Distance[] = ["l2", "cosine", "ip"];

const operators: Record<Distance, string> = { l2: "<->", cosine: "<=>", ip: "<#>" };

/** Name of the HNSW index `vectors index` builds (the l2 one keeps its historical name). */
export const indexName = "docs_vector_embedding_hnsw";

export function indexNameFor(distance: Distance, table: TableName = mainTable): string {
  const base = distance === "l2" ? indexName : `${indexName}_${distance}`;
  return table === mainTable ? base : `${base}_load`;
}

/** Unique index that keys rows by their content (title + summary), for resumable appends. */
export function keyIndexName(table: TableName): string {
  return `${table}_content_key`;
}

/** HNSW on `vector` accepts at most this many dimensions; above it the index uses halfvec. */
export const maxVectorIndexDims = 2000;

function dimension(dim: number): number {
  if (!Number.isInteger(dim) || dim < 1 || dim > 16000) {
    throw new RangeError(`embedding dimension must be an integer from 1 to 16000, got ${dim}`);
  }
  return dim;
}

export const createExtension = "CREATE EXTENSION IF NOT EXISTS vector";

export const extensionVersion =
  "SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'";

export function createTable(dim: number, table: TableName = mainTable): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${table} (doc_id text PRIMARY KEY, doc_source text, ` +
    `doc_content text, doc_embedding vector(${dimension(dim)}))`
  );
}

/** The content key: md5 of title, unit separator, summary (md5 keeps long texts indexable). */
export const contentKey = "md5(doc_source || chr(31) || doc_content)";

export function createKeyIndex(table: TableName): string {
  return `CREATE UNIQUE INDEX IF NOT EXISTS ${keyIndexName(table)} ON ${table} (${contentKey})`;
}

/** Which of the given content keys ($1, text[]) the table already holds. */
export function existingKeys(table: TableName): string {
  return `SELECT ${contentKey} AS key FROM ${table} WHERE ${contentKey} = ANY($1::text[])`;
}

/** One row: whether the table exists and, if so, the declared dimension of doc_embedding. */
export function tableShape(table: TableName = mainTable): string {
  return (
    `SELECT to_regclass('${table}') IS NOT NULL AS present, ` +
    `(SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = to_regclass('${table}') ` +
    "AND a.attname = 'doc_embedding' AND NOT a.attisdropped) AS dim"
  );
}

/** Inserts one row unless its content is already stored; returns the doc_id when it was. */
export function insertRow(table: TableName = mainTable): string {
  return (
    `INSERT INTO ${table} (doc_id, doc_source, doc_content, doc_embedding) ` +
    "VALUES ($1, $2, $3, $4::vector) ON CONFLICT DO NOTHING RETURNING doc_id"
  );
}

export function countRows(table: TableName = mainTable): string {
  return `SELECT count(*)::int AS n FROM ${table}`;
}

/** The largest numeric doc_id, as text (bigint travels as a string through `pg`). */
export const maxNumericId =
  "SELECT max(doc_id::numeric)::text AS max FROM docs_vector WHERE doc_id ~ '^[0-9]{1,30}$'";

export function dropTable(table: TableName = mainTable): string {
  return `DROP TABLE IF EXISTS ${table}`;
}

/** The table's HNSW indexes: name and definition. */
export const listHnswIndexes =
  "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexdef LIKE '%USING hnsw%'";

export const setEfSearch = "SELECT set_config('hnsw.ef_search', $1, false)";
/** pgvector >= 0.8: keep scanning the graph until LIMIT rows pass the filters (dead rows). */
export const setIterativeScan = "SELECT set_config('hnsw.iterative_scan', 'strict_order', false)";
export const setMaintenanceWorkMem = "SELECT set_config('maintenance_work_mem', $1, false)";

/** The expression the index is built on and queries order by: halfvec above 2000 dims. */
export function indexedExpression(
  dim: number,
  distance: Distance = "l2",
): { column: string; param: string; ops: string } {
  const d = dimension(dim);
  return d > maxVectorIndexDims
    ? {
        column: `(doc_embedding::halfvec(${d}))`,
        param: `$1::halfvec(${d})`,
        ops: `halfvec_${distance}_ops`,
      }
    : { column: "doc_embedding", param: "$1::vector", ops: `vector_${distance}_ops` };
}

export function createIndex(
  dim: number,
  m: number,
  efConstruction: number,
  distance: Distance = "l2",
  table: TableName = mainTable,
): string {
  const { column, ops } = indexedExpression(dim, distance);
  if (!Number.isInteger(m) || !Number.isInteger(efConstruction)) {
    throw new RangeError("HNSW m and ef_construction must be integers");
  }
  return (
    `CREATE INDEX IF NOT EXISTS ${indexNameFor(distance, table)} ON ${table} USING hnsw (${column} ${ops}) ` +
    `WITH (m = ${m}, ef_construction = ${efConstruction})`
  );
}

function selectNeighbours(distance: Distance): string {
  return (
    "SELECT doc_id, doc_source, doc_content, " +
    `doc_embedding ${operators[distance]} $1::vector AS distance FROM docs_vector`
  );
}

/** Exact nearest $2 rows: a scan over every row ordered by the distance. */
export function nearestExact(distance: Distance = "l2"): string {
  const op = operators[distance];
  return `${selectNeighbours(distance)} ORDER BY doc_embedding ${op} $1::vector LIMIT $2`;
}

/**
 * Nearest $2 rows through the index: orders by the indexed expression so the planner can use
 * it, and still reports the exact distance of each hit.
 */
export function nearestIndexed(dim: number, distance: Distance = "l2"): string {
  const { column, param } = indexedExpression(dim, distance);
  const order = column.startsWith("(") ? column.slice(1, -1) : column;
  return `${selectNeighbours(distance)} ORDER BY ${order} ${operators[distance]} ${param} LIMIT $2`;
}
