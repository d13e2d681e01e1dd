/**
 * The `docs_vector` table: setup, add, query (three nearest by `<->`), approximate index and
 * cleanup, over either driver. Every value goes through parameterised SQL.
 */
import pgvector from "pgvector";
import type { SqlClient } from "../db/sql-client.js";
import {
  DatabaseError,
  DimensionMismatchError,
  TableMissingError,
  VectorsError,
} from "../errors.js";
import * as sql from "./sql.js";

/** SQLSTATE of "relation does not exist". */
const undefinedTable = "42P01";
/** SQLSTATE PostgreSQL gives when an extension is not installed on the server. */
const featureNotSupported = "0A000";

/** One document to store; a missing embedding means the row is skipped. */
export interface DocumentRow {
  readonly id: string;
  readonly source: string;
  readonly content: string;
  readonly embedding?: readonly number[] | null;
}

/** One hit of a nearest-documents query. */
export interface Neighbour {
  doc_id: string;
  doc_source: string;
  doc_content: string;
  /** Euclidean distance between the query embedding and the document's embedding. */
  distance: number;
}

/** What `query` searched with. */
export type SearchMode = "exact" | "hnsw";

/** The approximate index, when one exists. */
export interface IndexInfo {
  readonly name: string;
  readonly definition: string;
}

/** Options of `buildIndex`; the defaults are pgvector's. */
export interface IndexOptions {
  readonly m?: number;
  readonly efConstruction?: number;
}

/** Checks that `embedding` is a list of `dim` finite numbers. */
export function checkEmbedding(embedding: readonly number[], dim: number, what: string): void {
  if (embedding.length !== dim) throw new DimensionMismatchError(dim, embedding.length, what);
  for (const value of embedding) {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new VectorsError("invalid_embedding", `${what} contains a non-finite value`);
    }
  }
}

/** The vector table on one database session. */
export class VectorStore {
  private index: IndexInfo | null | undefined;
  /** hnsw.ef_search is a session setting: set once per session, on the first indexed query. */
  private efSearchApplied = false;

  /**
   * @param client an open session; the store closes it in `cleanup` and `close`.
   * @param dim the dimension D of `doc_embedding vector(D)` (EMBED_DIM).
   * @param efSearch `hnsw.ef_search` for indexed queries.
   */
  constructor(
    readonly client: SqlClient,
    readonly dim: number,
    private readonly efSearch = 100,
  ) {}

  /** Whether the table exists and its declared dimension. */
  async shape(): Promise<{ present: boolean; dim?: number }> {
    const [row] = await this.client.query<{ present: boolean; dim: number | null }>(sql.tableShape);
    return { present: Boolean(row?.present), dim: row?.dim ?? undefined };
  }

  /**
   * Enables the extension and creates the table if absent.
   * @throws DimensionMismatchError when the table exists with another dimension.
   */
  async setup(): Promise<void> {
    try {
      await this.client.query(sql.createExtension);
    } catch (error) {
      if (error instanceof DatabaseError && error.sqlState === featureNotSupported) {
        throw new DatabaseError(
          `the database has no pgvector extension (${error.message}); install pgvector on that server ` +
            "or leave PG_VECTOR_DB unset to use the embedded database",
          error.sqlState,
          { cause: error },
        );
      }
      throw error;
    }
    const shape = await this.shape();
    if (shape.present && shape.dim !== this.dim) {
      throw new DimensionMismatchError(this.dim, shape.dim ?? -1, "existing table docs_vector");
    }
    if (!shape.present) await this.client.query(sql.createTable(this.dim));
  }

  /** Throws {@link TableMissingError} unless the table exists with dimension D. */
  async requireTable(): Promise<void> {
    const shape = await this.shape();
    if (!shape.present) throw new TableMissingError();
    if (shape.dim !== this.dim) {
      throw new DimensionMismatchError(this.dim, shape.dim ?? -1, "existing table docs_vector");
    }
  }

  /**
   * Inserts one row (its own transaction, so it is committed on return).
   * @returns false when the row was skipped because its embedding is missing.
   */
  async add(row: DocumentRow): Promise<boolean> {
    if (row.embedding == null || row.embedding.length === 0) return false;
    checkEmbedding(row.embedding, this.dim, `embedding of document ${row.id}`);
    await this.client.query(sql.insertRow, [
      row.id,
      row.source,
      row.content,
      pgvector.toSql(Array.from(row.embedding)),
    ]);
    return true;
  }

  /** Deletes every row; returns how many there were. */
  async clear(): Promise<number> {
    const before = await this.count();
    await this.client.query(sql.clearRows);
    return before;
  }

  async count(): Promise<number> {
    const [row] = await this.client.query<{ n: number }>(sql.countRows);
    return Number(row?.n ?? 0);
  }

  /** The largest numeric doc_id stored, or undefined for an empty table. */
  async maxNumericId(): Promise<bigint | undefined> {
    const [row] = await this.client.query<{ max: string | null }>(sql.maxNumericId);
    return row?.max == null ? undefined : BigInt(row.max);
  }

  /** The approximate index, if `vectors index` built one. */
  async indexInfo(): Promise<IndexInfo | undefined> {
    if (this.index === undefined) {
      const rows = await this.client.query<{ indexdef: string }>(sql.findIndex, [sql.indexName]);
      this.index = rows[0] ? { name: sql.indexName, definition: rows[0].indexdef } : null;
    }
    return this.index ?? undefined;
  }

  /** Builds the HNSW index (halfvec expression when D > 2000). Idempotent. */
  async buildIndex(options: IndexOptions = {}): Promise<IndexInfo> {
    await this.requireTable();
    await this.client.query(
      sql.createIndex(this.dim, options.m ?? 16, options.efConstruction ?? 64),
    );
    this.index = undefined;
    const info = await this.indexInfo();
    if (!info) throw new VectorsError("index_missing", `index ${sql.indexName} was not created`);
    return info;
  }

  /** The statement `query` runs: exact until an index exists, then the indexed expression. */
  async searchPlan(): Promise<{ mode: SearchMode; text: string }> {
    if (await this.indexInfo()) {
      if (!this.efSearchApplied) {
        await this.client.query(sql.setEfSearch, [String(this.efSearch)]);
        this.efSearchApplied = true;
      }
      return { mode: "hnsw", text: sql.nearestIndexed(this.dim) };
    }
    return { mode: "exact", text: sql.nearestExact };
  }

  /** The three documents nearest to `embedding` by Euclidean distance, nearest first. */
  async query(embedding: readonly number[], mode?: SearchMode): Promise<Neighbour[]> {
    checkEmbedding(embedding, this.dim, "query embedding");
    let rows: Neighbour[];
    try {
      const text = mode === "exact" ? sql.nearestExact : (await this.searchPlan()).text;
      rows = await this.client.query<Neighbour>(text, [pgvector.toSql(Array.from(embedding))]);
    } catch (error) {
      // One round trip per query: a missing table shows up as the query's own failure.
      if (error instanceof DatabaseError && error.sqlState === undefinedTable)
        throw new TableMissingError();
      throw error;
    }
    // The index orders by the halfvec distance; the exact distances settle ties among the three.
    return rows
      .map((row) => ({ ...row, distance: Number(row.distance) }))
      .sort((a, b) => a.distance - b.distance);
  }

  /** The planner's plan for `query` (to show that the index is used). */
  async explainQuery(embedding: readonly number[]): Promise<string> {
    const { text } = await this.searchPlan();
    const rows = await this.client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, [
      pgvector.toSql(Array.from(embedding)),
    ]);
    // The query vector is inlined in the plan; 2048 numbers would drown the plan's shape.
    return rows.map((row) => row["QUERY PLAN"].replace(/'\[[^\]]*\]'/g, "'[…]'")).join("\n");
  }

  /** Drops the table if it exists (committed) and closes the session. */
  async cleanup(): Promise<boolean> {
    try {
      const { present } = await this.shape();
      await this.client.query(sql.dropTable);
      this.index = undefined;
      this.efSearchApplied = false;
      return present;
    } finally {
      await this.client.close();
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
