/** Chooses the driver from the configuration: `pg` for a URL, embedded PGlite otherwise. */
import type { VectorsConfig } from "../config.js";
import { openPgClient } from "./pg-client.js";
import { openPgliteClient } from "./pglite-client.js";
import type { NoticeListener, SqlClient } from "./sql-client.js";

/** Opens a session on the configured database; `onNotice` hears the server's notices. */
export function connect(
  config: Pick<VectorsConfig, "databaseUrl" | "dataDir"> & { connectTimeoutMs?: number },
  onNotice?: NoticeListener,
): Promise<SqlClient> {
  return config.databaseUrl
    ? openPgClient(config.databaseUrl, { connectTimeoutMs: config.connectTimeoutMs, onNotice })
    : openPgliteClient(config.dataDir, onNotice);
}
