/** Chooses the driver from the configuration: `pg` for a URL, embedded PGlite otherwise. */
import type { VectorsConfig } from "../config.js";
import { openPgClient } from "./pg-client.js";
import { openPgliteClient } from "./pglite-client.js";
import { applyTimeouts, type SessionTimeouts, withTimeoutMessages } from "./session-timeouts.js";
import type { NoticeListener, SqlClient } from "./sql-client.js";

/** Where to connect: `databaseUrl` (PostgreSQL) or else `dataDir` (embedded), and the limits. */
export type ConnectConfig = Pick<VectorsConfig, "databaseUrl" | "dataDir"> &
  SessionTimeouts & {
    readonly connectTimeoutMs?: number;
  };

export interface ConnectOptions {
  /** Hears the server's notices. */
  readonly onNotice?: NoticeListener;
  /**
   * Whether a missing embedded database is created (default true). Commands that only read or
   * drop pass false, so a wrong directory is reported instead of filled with an empty store.
   */
  readonly create?: boolean;
}

/**
 * Opens a session on the configured database with `lock_timeout` and `statement_timeout` set.
 * @param options the options, or (as before) only a notice listener.
 */
export async function connect(
  config: ConnectConfig,
  options: ConnectOptions | NoticeListener = {},
): Promise<SqlClient> {
  const { onNotice, create } = typeof options === "function" ? { onNotice: options } : options;
  const client = config.databaseUrl
    ? await openPgClient(config.databaseUrl, {
        connectTimeoutMs: config.connectTimeoutMs,
        onNotice,
      })
    : await openPgliteClient(config.dataDir, { onNotice, create });
  try {
    await applyTimeouts(client, config);
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return withTimeoutMessages(client, config);
}
