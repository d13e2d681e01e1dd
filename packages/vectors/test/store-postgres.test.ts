/**
 * The store contract on a real PostgreSQL server with pgvector (TEST_DATABASE_URL; .ci/run
 * sets it and builds the extension when the local server lacks it). Each run works in a schema
 * of its own, so runs sharing the server do not meet; the extension itself is created once in
 * `public` and kept, since a database holds one copy of it for everyone.
 */
import { after, before, describe } from "node:test";
import { openPgClient } from "../src/db/pg-client.js";
import type { SqlClient } from "../src/db/sql-client.js";
import { runStoreContract } from "./store-contract.js";

const url = process.env.TEST_DATABASE_URL;
const schema = `vectors_test_${process.pid}_${Date.now()}`;

async function withClient<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
  const client = await openPgClient(url ?? "");
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

describe("vector store on a real PostgreSQL server with pgvector (TEST_DATABASE_URL)", {
  skip: url ? false : "TEST_DATABASE_URL is not set; no real PostgreSQL server to test against",
  timeout: 180_000,
}, () => {
  before(async () => {
    await withClient(async (client) => {
      const offered = await client.query(
        "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
      );
      if (offered.length === 0) {
        throw new Error(
          "the server at TEST_DATABASE_URL lacks pgvector; run scripts/ensure-pgvector.sh",
        );
      }
      await client.query("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public");
      await client.query(`CREATE SCHEMA ${schema}`);
    });
  });
  after(async () => {
    await withClient((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  });
  runStoreContract(async () => {
    const client = await openPgClient(url ?? "");
    await client.query(`SET search_path TO ${schema}, public`);
    return client;
  });
});
