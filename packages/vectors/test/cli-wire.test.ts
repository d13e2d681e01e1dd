/**
 * The CLI with PG_VECTOR_DB set: the `pg` driver over the PostgreSQL wire protocol, against
 * PGlite (with pgvector) served by @electric-sql/pglite-socket on an ephemeral port.
 */

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { createMemoryPglite } from "../src/db/pglite-client.js";
import { runVectors } from "./cli-harness.js";
import { type Endpoint, startEmbeddingsEndpoint } from "./embeddings-endpoint.js";

describe("vectors CLI over the PostgreSQL wire protocol", { timeout: 120_000 }, () => {
  let db: PGlite;
  let server: PGLiteSocketServer;
  let endpoint: Endpoint;
  let env: NodeJS.ProcessEnv = {};

  before(async () => {
    db = await createMemoryPglite();
    server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 4 });
    await server.start();
    const vectors = new Map([
      ["near", [1]],
      ["middle", [2]],
      ["far", [5]],
      ["farthest", [9]],
      ["probe", [0]],
    ]);
    endpoint = await startEmbeddingsEndpoint({ dim: 2048, vectors });
    const dir = await mkdtemp(join(tmpdir(), "vectors-wire-"));
    const dataset = join(dir, "docs.txt");
    await writeFile(
      dataset,
      "title|author|summary\nN|a|near\nM|b|middle\nF|c|far\nFF|d|farthest\n",
    );
    env = {
      PG_VECTOR_DB: `postgres://quintet:secret@${server.getServerConn()}/vectors`,
      VECTORS_DATA_DIR: join(dir, "must-not-be-used"),
      EMBED_BASE_URL: endpoint.url,
      DOCS_DATASET: dataset,
    };
  });
  after(async () => {
    await endpoint.close();
    await server.stop();
    await db.close();
  });

  it("loads, queries, indexes and cleans up through a postgres:// URL", async () => {
    const load = await runVectors(["load"], env);
    assert.equal(load.code, 0, load.stderr);
    assert.match(load.stdout, /stored: 4 of 4 data row\(s\)\nids: 11\.\.14/);
    const stored = await db.query<{ doc_id: string; doc_source: string }>(
      "SELECT doc_id, doc_source FROM docs_vector ORDER BY doc_id",
    );
    assert.deepEqual(
      stored.rows.map((r) => `${r.doc_id}:${r.doc_source}`),
      ["11:N", "12:M", "13:F", "14:FF"],
    );
    const query = await runVectors(["query", "probe", "--json"], env);
    assert.equal(query.code, 0, query.stderr);
    assert.deepEqual(JSON.parse(query.stdout), [
      { doc_id: "11", doc_source: "N", doc_content: "near", distance: 1 },
      { doc_id: "12", doc_source: "M", doc_content: "middle", distance: 2 },
      { doc_id: "13", doc_source: "F", doc_content: "far", distance: 5 },
    ]);
    const index = await runVectors(["index"], env);
    assert.equal(index.code, 0, index.stderr);
    assert.match(index.stdout, /halfvec_l2_ops/);
    assert.equal(
      JSON.parse((await runVectors(["query", "probe", "--json"], env)).stdout)[0].doc_id,
      "11",
    );
    assert.equal((await runVectors(["cleanup"], env)).stdout, "dropped table docs_vector\n");
    const gone = await db.query("SELECT to_regclass('docs_vector') AS t");
    assert.deepEqual(gone.rows, [{ t: null }]);
    assert.equal(existsSync(env.VECTORS_DATA_DIR as string), false, "embedded database untouched");
  });

  it("names the database URL (without its password) when the database cannot be reached", async () => {
    const result = await runVectors(["cleanup"], {
      PG_VECTOR_DB: "postgres://u:secret@127.0.0.1:1/db",
    });
    assert.equal(result.code, 1);
    assert.ok(
      result.stderr.startsWith(
        "vectors cleanup: cannot connect to PostgreSQL at postgres://u:***@127.0.0.1:1/db (PG_VECTOR_DB): ",
      ),
      result.stderr,
    );
    assert.match(result.stderr, /ECONNREFUSED/);
    assert.doesNotMatch(result.stderr, /secret/);
  });

  it("gives up on a database that accepts and never answers (PG_CONNECT_TIMEOUT, connect_timeout)", {
    timeout: 60_000,
  }, async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const byEnv = await runVectors(["cleanup"], {
        PG_VECTOR_DB: `postgres://u:p@127.0.0.1:${port}/db`,
        PG_CONNECT_TIMEOUT: "1",
      });
      assert.equal(byEnv.code, 1);
      assert.match(
        byEnv.stderr,
        /PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:\d+\/db \(PG_VECTOR_DB\) did not accept a session within 1 s/,
      );
      const byUrl = await runVectors(["cleanup"], {
        PG_VECTOR_DB: `postgres://u:p@127.0.0.1:${port}/db?connect_timeout=2`,
        PG_CONNECT_TIMEOUT: "0",
      });
      assert.equal(byUrl.code, 1);
      assert.match(byUrl.stderr, /did not accept a session within 2 s/);
      assert.ok(sockets.length >= 2, "both runs reached the silent server");
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("says so clearly when the PostgreSQL server has no pgvector extension", async () => {
    // A server whose installation lacks pgvector: PGlite made without the extension. A real
    // server that has pgvector installed cannot play this part (a superuser can always create
    // it, and a role that may not is refused for want of a privilege, another error), and CI's
    // server has it. CREATE EXTENSION here fails as on any such server: SQLSTATE 0A000,
    // 'extension "vector" is not available'.
    const bare = await PGlite.create();
    const bareServer = new PGLiteSocketServer({ db: bare, host: "127.0.0.1", port: 0 });
    await bareServer.start();
    try {
      const url = `postgres://quintet:secret@${bareServer.getServerConn()}/vectors`;
      const result = await runVectors(["load"], { ...env, PG_VECTOR_DB: url });
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        /the database has no pgvector extension \(extension "vector" is not available\); install pgvector on that server or leave PG_VECTOR_DB unset/,
      );
      const tables = await bare.query(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
      );
      assert.deepEqual(tables.rows, [], "nothing was created");
    } finally {
      await bareServer.stop();
      await bare.close();
    }
  });
});
