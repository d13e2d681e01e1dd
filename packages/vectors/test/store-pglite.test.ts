import { after, before, describe } from "node:test";
import type { PGlite } from "@electric-sql/pglite";
import { createMemoryPglite, wrapPglite } from "../src/db/pglite-client.js";
import { runLoadContract } from "./load-contract.js";
import { runStoreContract } from "./store-contract.js";

describe("vector store on embedded PGlite", { timeout: 300_000 }, () => {
  let db: PGlite;
  before(async () => {
    db = await createMemoryPglite();
  });
  after(() => db.close());
  runStoreContract(async () => wrapPglite(db, false));
  runLoadContract(async () => wrapPglite(db, false));
});
