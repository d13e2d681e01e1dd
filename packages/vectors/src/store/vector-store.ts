/**
 * The `docs_vector` table: setup, add, query (three nearest by `<->`), approximate index and
 * cleanup, over either driver. Every value goes through parameterised SQL.
 */
import { createHash } from "node:crypto";
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
/** SQLSTATE of a unique violation. */
const uniqueViolation = "23505";

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
  /** Which distance the index serves (default l2, the spec's `<->`). */
  readonly distance?: sql.Distance;
}

/** What `query` returns and how it searches. */
export interface QueryOptions {
  /** "exact" scans every row even when an index exists. */
  readonly mode?: SearchMode;
  /** Rows returned (default 3, the spec's). */
  readonly k?: number;
  /** Distance to order by (default l2). */
  readonly distance?: sql.Distance;
}

/** Settings of a store beyond its dimension. */
export interface StoreSettings {
  /** `hnsw.ef_search` for indexed queries. */
  readonly efSearch?: number;
  /** `maintenance_work_mem` for index builds (PostgreSQL memory text, e.g. "1GB"). */
  readonly maintenanceWorkMem?: string;
}

/** pgvector version text ("0.8.7") to a comparable number (0.8 -> 800). */
function versionNumber(text: string | undefined): number {
  const [major = 0, minor = 0] = (text ?? "").split(".").map(Number);
  return major * 10000 + minor * 100;
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
  private indexes: Map<string, IndexInfo> | undefined;
  /** Search settings are session settings: applied once per session, on the first indexed query. */
  private searchSettingsApplied = false;
  readonly settings: Required<StoreSettings>;

  /**
   * @param client an open session; the store closes it in `cleanup` and `close`.
   * @param dim the dimension D of `doc_embedding vector(D)` (EMBED_DIM).
   * @param settings `hnsw.ef_search` (a number, as before) or the store's settings.
   */
  constructor(
    readonly client: SqlClient,
    readonly dim: number,
    settings: number | StoreSettings = {},
  ) {
    const given = typeof settings === "number" ? { efSearch: settings } : settings;
    this.settings = {
      efSearch: given.efSearch ?? 100,
      maintenanceWorkMem: given.maintenanceWorkMem ?? "1GB",
    };
  }

  /** "in <the client's location>", for messages. */
  private where(): string | undefined {
    return this.client.location ? `in ${this.client.location}` : undefined;
  }

  /** Whether the table exists and its declared dimension. */
  async shape(table: sql.TableName = sql.mainTable): Promise<{ present: boolean; dim?: number }> {
    const {
      rows: [row],
    } = await this.client.query<{ present: boolean; dim: number | null }>(sql.tableShape(table));
    return { present: Boolean(row?.present), dim: row?.dim ?? undefined };
  }

  /**
   * Enables the extension and creates the table (with its content key) if absent.
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
    await this.createKey(sql.mainTable);
  }

  /** Creates the unique content key; a table from before it may hold duplicates that block it. */
  async createKey(table: sql.TableName): Promise<void> {
    try {
      await this.client.query(sql.createKeyIndex(table));
    } catch (error) {
      if (error instanceof DatabaseError && error.sqlState === uniqueViolation) {
        throw new VectorsError(
          "duplicate_rows",
          `${table} holds rows with the same title and summary, so they cannot be keyed by ` +
            "content; run a load without --append to replace them",
        );
      }
      throw error;
    }
  }

  /** Throws {@link TableMissingError} unless the table exists with dimension D. */
  async requireTable(): Promise<void> {
    const shape = await this.shape();
    if (!shape.present) throw new TableMissingError(this.where());
    if (shape.dim !== this.dim) {
      throw new DimensionMismatchError(this.dim, shape.dim ?? -1, "existing table docs_vector");
    }
  }

  /**
   * Inserts one row (committed on return unless a transaction is open).
   * @returns false when the row was skipped: its embedding is missing, or a row with the same
   *   title and summary is already stored.
   */
  async add(row: DocumentRow, table: sql.TableName = sql.mainTable): Promise<boolean> {
    if (row.embedding == null || row.embedding.length === 0) return false;
    checkEmbedding(row.embedding, this.dim, `embedding of document ${row.id}`);
    const { rows: inserted } = await this.client.query(sql.insertRow(table), [
      row.id,
      row.source,
      row.content,
      pgvector.toSql(Array.from(row.embedding)),
    ]);
    return inserted.length > 0;
  }

  /** Which of these content keys (see {@link contentKeyOf}) the table already holds. */
  async existingKeys(keys: readonly string[], table: sql.TableName = sql.mainTable) {
    if (keys.length === 0) return new Set<string>();
    const { rows } = await this.client.query<{ key: string }>(sql.existingKeys(table), [[...keys]]);
    return new Set(rows.map((row) => row.key));
  }

  async count(table: sql.TableName = sql.mainTable): Promise<number> {
    const {
      rows: [row],
    } = await this.client.query<{ n: number }>(sql.countRows(table));
    return Number(row?.n ?? 0);
  }

  /** The largest numeric doc_id stored, or undefined for an empty table. */
  async maxNumericId(): Promise<bigint | undefined> {
    const {
      rows: [row],
    } = await this.client.query<{ max: string | null }>(sql.maxNumericId);
    return row?.max == null ? undefined : BigInt(row.max);
  }

  /** The HNSW indexes of a table by name (cached for the main table). */
  async hnswIndexes(table: sql.TableName = sql.mainTable): Promise<Map<string, IndexInfo>> {
    if (table === sql.mainTable && this.indexes) return this.indexes;
    const { rows } = await this.client.query<{ indexname: string; indexdef: string }>(
      sql.listHnswIndexes,
      [table],
    );
    const found = new Map(
      rows.map((r) => [r.indexname, { name: r.indexname, definition: r.indexdef }]),
    );
    if (table === sql.mainTable) this.indexes = found;
    return found;
  }

  /** The approximate index for a distance, if `vectors index` built one. */
  async indexInfo(distance: sql.Distance = "l2"): Promise<IndexInfo | undefined> {
    return (await this.hnswIndexes()).get(sql.indexNameFor(distance));
  }

  /** Forgets what is known about the indexes (after a swap or a build). */
  forgetIndexes(): void {
    this.indexes = undefined;
  }

  /**
   * Builds the HNSW index for a distance (halfvec expression when D > 2000). Idempotent.
   * maintenance_work_mem is raised first so the graph of 2048-dim rows fits in memory.
   */
  async buildIndex(
    options: IndexOptions = {},
    table: sql.TableName = sql.mainTable,
  ): Promise<IndexInfo> {
    if (table === sql.mainTable) await this.requireTable();
    const distance = options.distance ?? "l2";
    await this.client.query(sql.setMaintenanceWorkMem, [this.settings.maintenanceWorkMem]);
    await this.client.query(
      sql.createIndex(this.dim, options.m ?? 16, options.efConstruction ?? 64, distance, table),
    );
    this.indexes = undefined;
    const info = (await this.hnswIndexes(table)).get(sql.indexNameFor(distance, table));
    if (!info)
      throw new VectorsError(
        "index_missing",
        `index ${sql.indexNameFor(distance, table)} was not created`,
      );
    return info;
  }

  /** Session settings of indexed queries: ef_search, and iterative scans where pgvector has them. */
  private async applySearchSettings(): Promise<void> {
    if (this.searchSettingsApplied) return;
    await this.client.query(sql.setEfSearch, [String(this.settings.efSearch)]);
    const {
      rows: [row],
    } = await this.client.query<{ version: string }>(sql.extensionVersion);
    // Without iterative scans a graph holding dead rows (deleted, not yet vacuumed) returns
    // fewer than LIMIT rows; pgvector 0.8 added them.
    if (versionNumber(row?.version) >= versionNumber("0.8")) {
      await this.client.query(sql.setIterativeScan);
    }
    this.searchSettingsApplied = true;
  }

  /** The statement `query` runs: exact unless an index for the distance exists. */
  async searchPlan(distance: sql.Distance = "l2"): Promise<{ mode: SearchMode; text: string }> {
    if (await this.indexInfo(distance)) {
      await this.applySearchSettings();
      return { mode: "hnsw", text: sql.nearestIndexed(this.dim, distance) };
    }
    return { mode: "exact", text: sql.nearestExact(distance) };
  }

  /**
   * The k documents nearest to `embedding` (default 3, by Euclidean distance), nearest first.
   * @param options a {@link QueryOptions}, or a {@link SearchMode} alone.
   */
  async query(
    embedding: readonly number[],
    options: QueryOptions | SearchMode = {},
  ): Promise<Neighbour[]> {
    const {
      mode,
      k = 3,
      distance = "l2",
    } = typeof options === "string" ? { mode: options } : options;
    checkEmbedding(embedding, this.dim, "query embedding");
    let rows: Neighbour[];
    try {
      const text =
        mode === "exact" ? sql.nearestExact(distance) : (await this.searchPlan(distance)).text;
      ({ rows } = await this.client.query<Neighbour>(text, [
        pgvector.toSql(Array.from(embedding)),
        k,
      ]));
    } catch (error) {
      // One round trip per query: a missing table shows up as the query's own failure.
      if (error instanceof DatabaseError && error.sqlState === undefinedTable)
        throw new TableMissingError(this.where());
      throw error;
    }
    // The index orders by the halfvec distance; the exact distances settle ties among the hits.
    return rows
      .map((row) => ({ ...row, distance: Number(row.distance) }))
      .sort((a, b) => a.distance - b.distance);
  }

  /** The planner's plan for `query` (to show that the index is used). */
  async explainQuery(embedding: readonly number[], distance: sql.Distance = "l2"): Promise<string> {
    const { text } = await this.searchPlan(distance);
    const { rows } = await this.client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, [
      pgvector.toSql(Array.from(embedding)),
      3,
    ]);
    // The query vector is inlined in the plan; 2048 numbers would drown the plan's shape.
    return rows.map((row) => row["QUERY PLAN"].replace(/'\[[^\]]*\]'/g, "'[…]'")).join("\n");
  }

  /** Drops the table if it exists (committed) and closes the session. */
  async cleanup(): Promise<boolean> {
    try {
      const { present } = await this.shape();
      await this.client.query(sql.dropTable());
      this.indexes = undefined;
      this.searchSettingsApplied = false;
      return present;
    } finally {
      await this.client.close();
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** The content key of a row, as the database computes it (md5 of title, U+001F, summary). */
export function contentKeyOf(source: string, content: string): string {
  return createHash("md5").update(`${source}\u001f${content}`, "utf8").digest("hex");
}
