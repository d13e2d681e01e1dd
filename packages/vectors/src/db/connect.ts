/** Chooses the driver from the configuration: `pg` for a URL, embedded PGlite otherwise. */
import type { VectorsConfig } from "../config.js";
import { openPgClient } from "./pg-client.js";
import { openPgliteClient } from "./pglite-client.js";
import type { SqlClient } from "./sql-client.js";

/** Opens a session on the configured database. */
export function connect(
  config: Pick<VectorsConfig, "databaseUrl" | "dataDir">,
): Promise<SqlClient> {
  return config.databaseUrl ? openPgClient(config.databaseUrl) : openPgliteClient(config.dataDir);
}
