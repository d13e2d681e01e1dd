/**
 * The store contract on a real PostgreSQL server with pgvector (TEST_DATABASE_URL; .ci/run
 * sets it and builds the extension when the local server lacks it). Each run works in a
 * database of its own, created here and dropped afterwards, so runs sharing the server (and
 * tables other tests keep in the shared database) never meet; the contract's own setup creates
 * the extension in it.
 */
import { after, before, describe } from "node:test";
import { openPgClient } from "../src/db/pg-client.js";
import { runStoreContract } from "./store-contract.js";

const url = process.env.TEST_DATABASE_URL;
const database = `vectors_test_${process.pid}_${Date.now()}`;

/** Runs one statement on the server's maintenance connection (the URL's own database). */
async function admin(statement: string): Promise<void> {
  const client = await openPgClient(url ?? "");
  try {
    await client.query(statement);
  } finally {
    await client.close();
  }
}

describe("vector store on a real PostgreSQL server with pgvector (TEST_DATABASE_URL)", {
  skip: url ? false : "TEST_DATABASE_URL is not set; no real PostgreSQL server to test against",
  timeout: 180_000,
}, () => {
  const own = new URL(url ?? "postgres://localhost/none");
  own.pathname = `/${database}`;
  before(async () => {
    await admin(`CREATE DATABASE ${database}`);
  });
  after(async () => {
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });
  runStoreContract(() => openPgClient(own.href));
});
