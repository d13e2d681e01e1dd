/**
 * A replace load never touches docs_vector until it is complete: rows go into a staging table
 * (`docs_vector_load`), which then takes docs_vector's place in one transaction. A load that
 * stops half way (endpoint down, database gone, Ctrl-C, a bad row) drops the staging table and
 * the old rows stay as they were. Because the swapped-in table is new, its HNSW graph holds no
 * dead entries of the rows it replaced (the cause of short answers after a DELETE + reload).
 */
import { withTransaction } from "../db/sql-client.js";
import * as sql from "./sql.js";
import type { VectorStore } from "./vector-store.js";

/** Creates an empty staging table (dropping one a killed load left behind). */
export async function createStaging(store: VectorStore): Promise<void> {
  await store.client.query(sql.dropTable(sql.stagingTable));
  await store.client.query(sql.createTable(store.dim, sql.stagingTable));
  await store.createKey(sql.stagingTable);
}

/** Drops the staging table; best effort, for a load that stopped. */
export async function dropStaging(store: VectorStore): Promise<void> {
  await store.client.query(sql.dropTable(sql.stagingTable));
}

/** Rewrites an index definition of docs_vector so it builds the same index on the staging table. */
export function stagingIndexDefinition(definition: string): string | undefined {
  const match = /^CREATE INDEX (\S+) ON ((?:\S+\.)?)docs_vector USING (.*)$/s.exec(definition);
  if (!match) return undefined;
  return `CREATE INDEX ${match[1]}_load ON ${match[2]}${sql.stagingTable} USING ${match[3]}`;
}

/**
 * Builds on the staging table every HNSW index docs_vector has, then swaps the tables (and the
 * index names) in one transaction. The builds run before the swap so queries keep being served
 * from the old table meanwhile.
 */
export async function swapStaging(store: VectorStore, log: (line: string) => void): Promise<void> {
  const indexes = [...(await store.hnswIndexes(sql.mainTable)).values()];
  const renames: Array<[string, string]> = [
    [`${sql.stagingTable}_pkey`, `${sql.mainTable}_pkey`],
    [sql.keyIndexName(sql.stagingTable), sql.keyIndexName(sql.mainTable)],
  ];
  if (indexes.length > 0) {
    await store.client.query(sql.setMaintenanceWorkMem, [store.settings.maintenanceWorkMem]);
  }
  for (const index of indexes) {
    const definition = stagingIndexDefinition(index.definition);
    if (!definition) continue;
    log(`rebuilding index ${index.name} on the new rows`);
    await store.client.query(definition);
    renames.push([`${index.name}_load`, index.name]);
  }
  // Fresh statistics so the planner sees the real size (and picks the index) at once.
  await store.client.query(`ANALYZE ${sql.stagingTable}`);
  await withTransaction(store.client, async () => {
    await store.client.query(sql.dropTable(sql.mainTable));
    await store.client.query(`ALTER TABLE ${sql.stagingTable} RENAME TO ${sql.mainTable}`);
    for (const [from, to] of renames) {
      await store.client.query(`ALTER INDEX IF EXISTS ${from} RENAME TO ${to}`);
    }
  });
  store.forgetIndexes();
}
