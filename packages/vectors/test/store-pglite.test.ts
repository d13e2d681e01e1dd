import { after, before, describe } from "node:test";
import type { PGlite } from "@electric-sql/pglite";
import { createMemoryPglite, wrapPglite } from "../src/db/pglite-client.js";
import { runStoreContract } from "./store-contract.js";

describe("vector store on embedded PGlite", { timeout: 180_000 }, () => {
  let db: PGlite;
  before(async () => {
    db = await createMemoryPglite();
  });
  after(() => db.close());
  runStoreContract(async () => wrapPglite(db, false));
});
