/**
 * One writer of docs_vector at a time per database: loads, index builds and cleanup take a
 * PostgreSQL session-level advisory lock, so a second one refuses at once with a message
 * instead of mixing two datasets into one table. The lock goes with the session, so a killed
 * process never leaves it behind. (The embedded database adds a directory lock, see
 * db/data-dir-lock.ts, because PGlite has a single session.)
 */
import type { SqlClient } from "../db/sql-client.js";
import { BusyError } from "../errors.js";

/** The advisory lock key: a namespace ("QVEC" as an int4) and the table's number in it. */
const lockSpace = 0x51564543;
const docsVectorLock = 1;

/** Releases the lock (also released when the session ends). */
export type Unlock = () => Promise<void>;

/**
 * Takes the writer lock of docs_vector, or throws {@link BusyError} naming the backend that
 * holds it and what to do.
 */
export async function lockTable(client: SqlClient, action: string): Promise<Unlock> {
  const {
    rows: [row],
  } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::int, $2::int) AS ok", [
    lockSpace,
    docsVectorLock,
  ]);
  if (!row?.ok) {
    const { rows: holders } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = $1::bigint " +
        "AND objid::bigint = $2::bigint AND objsubid = 2 AND granted",
      [lockSpace, docsVectorLock],
    );
    const pid = holders[0]?.pid;
    throw new BusyError(
      `cannot ${action}: another load, index build or cleanup of docs_vector is running on this ` +
        `database${pid ? ` (PostgreSQL backend pid ${pid})` : ""}; wait for it to finish and run ` +
        "this again",
    );
  }
  return async () => {
    await client.query("SELECT pg_advisory_unlock($1::int, $2::int)", [lockSpace, docsVectorLock]);
  };
}
