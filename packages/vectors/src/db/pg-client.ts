/** The `pg` driver: a session on a real PostgreSQL (or anything speaking its wire protocol). */
import pg from "pg";
import type { SqlClient } from "./sql-client.js";
import { toDatabaseError } from "./sql-client.js";

/** Opens one `pg` session on the `postgres://` URL. */
export async function openPgClient(url: string): Promise<SqlClient> {
  const client = new pg.Client({ connectionString: url });
  // An idle-session failure (server gone) must not crash the process; the next query reports it.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw toDatabaseError(error);
  }
  return {
    driver: "pg",
    async query<R extends object>(text: string, params: readonly unknown[] = []) {
      try {
        const result = await client.query(text, params as unknown[]);
        return result.rows as R[];
      } catch (error) {
        throw toDatabaseError(error);
      }
    },
    async close() {
      await client.end();
    },
  };
}
