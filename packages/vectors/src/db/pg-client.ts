/** The `pg` driver: a session on a real PostgreSQL (or anything speaking its wire protocol). */
import pg from "pg";
import { DatabaseError } from "../errors.js";
import type { NoticeListener, SqlClient } from "./sql-client.js";
import { toDatabaseError } from "./sql-client.js";

export interface PgClientOptions {
  /**
   * Longest wait for the server to accept the session (TCP, TLS, startup), in ms; 0 waits for
   * ever. Defaults to the URL's `connect_timeout` (seconds), else 10 s.
   */
  readonly connectTimeoutMs?: number;
  readonly onNotice?: NoticeListener;
}

/** The URL with its password replaced by `***`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(an unreadable URL)";
  }
}

/** `connect_timeout` of the URL in ms, when it has one. */
function urlTimeoutMs(url: string): number | undefined {
  try {
    const value = new URL(url).searchParams.get("connect_timeout");
    return value !== null && /^\d+$/.test(value) ? Number(value) * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Opens one `pg` session on the `postgres://` URL. */
export async function openPgClient(url: string, options: PgClientOptions = {}): Promise<SqlClient> {
  const timeoutMs = options.connectTimeoutMs ?? urlTimeoutMs(url) ?? 10_000;
  // pg reads only connectionTimeoutMillis (not the URL's connect_timeout), so it is passed here.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // An idle-session failure (server gone) must not crash the process; the next query reports it.
  client.on("error", () => {});
  const onNotice = options.onNotice;
  if (onNotice) client.on("notice", (notice) => onNotice(notice.message ?? String(notice)));
  try {
    await client.connect();
  } catch (error) {
    // Name the server tried: a bare ECONNREFUSED does not say which setting to fix.
    const where = `PostgreSQL at ${redactUrl(url)} (PG_VECTOR_DB)`;
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    const detail =
      typeof code === "string" && !message.includes(code) ? `${code} ${message}` : message;
    if (timeoutMs > 0 && /timeout/i.test(message)) {
      throw new DatabaseError(
        `${where} did not accept a session within ${timeoutMs / 1000} s ` +
          `(PG_CONNECT_TIMEOUT, or connect_timeout in the URL): ${message}`,
        undefined,
        { cause: error },
      );
    }
    throw new DatabaseError(
      `cannot connect to ${where}: ${detail}`,
      typeof code === "string" ? code : undefined,
      {
        cause: error,
      },
    );
  }
  return {
    driver: "pg",
    location: `PostgreSQL at ${redactUrl(url)}`,
    async query<R extends object>(text: string, params: readonly unknown[] = []) {
      try {
        const result = await client.query(text, params as unknown[]);
        return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        throw toDatabaseError(error);
      }
    },
    async exec(script: string) {
      try {
        await client.query(script);
      } catch (error) {
        throw toDatabaseError(error);
      }
    },
    async close() {
      await client.end();
    },
  };
}
