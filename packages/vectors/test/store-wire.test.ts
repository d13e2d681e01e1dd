import { after, before, describe } from "node:test";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { openPgClient } from "../src/db/pg-client.js";
import { createMemoryPglite } from "../src/db/pglite-client.js";
import { runLoadContract } from "./load-contract.js";
import { runStoreContract } from "./store-contract.js";

describe("vector store over the PostgreSQL wire protocol (pg driver, PGlite served by pglite-socket)", {
  timeout: 300_000,
}, () => {
  let db: PGlite;
  let server: PGLiteSocketServer;
  let url = "";
  before(async () => {
    db = await createMemoryPglite();
    server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 4 });
    await server.start();
    url = `postgres://postgres:postgres@${server.getServerConn()}/postgres`;
  });
  after(async () => {
    await server.stop();
    await db.close();
  });
  runStoreContract(() => openPgClient(url));
  runLoadContract(() => openPgClient(url));
});
