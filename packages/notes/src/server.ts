/**
 * Wires configuration to a running server: opens the database (PostgreSQL or PGlite), builds
 * the repositories, account logic, session codec and app, and listens.
 */

import type { SqlClient } from "@quintet/kit";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import { buildApp } from "./app.js";
import { createAccounts } from "./auth/accounts.js";
import { createLoginThrottle } from "./auth/login-throttle.js";
import { createPasswordHasher } from "./auth/password.js";
import { createSessionCodec } from "./auth/session.js";
import type { NotesConfig } from "./config.js";
import { type DataDirLock, lockDataDir } from "./db/data-dir-lock.js";
import { openDatabase } from "./db/open-database.js";
import { createDraftStore } from "./notes/draft-store.js";
import { createNoteRepo } from "./notes/note-repo.js";
import { createUserRepo } from "./users/user-repo.js";

/** A listening notes server. */
export interface RunningServer {
  readonly app: FastifyInstance;
  readonly db: SqlClient;
  /** `http://host:port` with the real port. */
  readonly url: string;
  /** Stops accepting requests, closes the database, then releases the data directory's lock. */
  close(): Promise<void>;
}

/** Builds the app on an open database, from the parts of the configuration it needs. */
export async function buildAppFromConfig(
  config: NotesConfig,
  db: SqlClient,
  loggerInstance?: FastifyServerOptions["loggerInstance"],
): Promise<FastifyInstance> {
  const users = createUserRepo(db);
  const hasher = createPasswordHasher(config.bcryptCost, config.hashThreads);
  const accounts = createAccounts({
    users,
    hasher,
    throttle: createLoginThrottle({
      maxFailures: config.loginMaxFailures,
      windowSeconds: config.loginWindowSeconds,
    }),
    signupThrottle: createLoginThrottle({
      maxFailures: config.signupMaxAttempts,
      windowSeconds: config.signupWindowSeconds,
    }),
  });
  const sessions = createSessionCodec({
    secret: config.sessionSecret,
    maxAgeSeconds: config.sessionMaxAgeSeconds,
    // The browser keeps the cookie through the draft window, so a note sent then is kept.
    cookieMaxAgeSeconds:
      config.sessionMaxAgeSeconds + (config.maxDrafts > 0 ? config.draftMaxAgeSeconds : 0),
  });
  const app = await buildApp({
    accounts,
    notes: createNoteRepo(db),
    sessions,
    drafts: createDraftStore({
      maxAgeSeconds: config.draftMaxAgeSeconds,
      maxDrafts: config.maxDrafts,
    }),
    sessionVersions: users,
    trustProxy: config.trustProxy,
    throttleDelayMs: config.throttleDelayMs,
    connectionLimits: config.connectionLimits,
    loggerInstance,
  });
  app.addHook("onClose", () => hasher.close());
  return app;
}

/** Formats a listen address as a URL (IPv6 hosts in brackets). */
export function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Opens storage and starts listening on `config.host:config.port`. */
export async function startServer(
  config: NotesConfig,
  loggerInstance?: FastifyServerOptions["loggerInstance"],
): Promise<RunningServer> {
  // Embedded storage only: PostgreSQL arbitrates between its clients itself.
  const lock: DataDirLock | undefined = config.databaseUrl
    ? undefined
    : lockDataDir(config.dataDir);
  let db: SqlClient | undefined;
  let app: FastifyInstance;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    app = await buildAppFromConfig(config, db, loggerInstance);
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await db?.close();
    lock?.release();
    throw error;
  }
  const openDb = db;
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return {
    app,
    db: openDb,
    url: urlOf(config.host, port),
    async close() {
      try {
        await app.close();
        await openDb.close();
      } finally {
        lock?.release();
      }
    },
  };
}
