import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../src/config.js";
import { LOCK_FILE } from "../src/db/data-dir-lock.js";
import { startServer } from "../src/server.js";
import { TEST_SECRET } from "./support/test-app.js";

/** Starts a server on embedded storage in `dataDir`, on a free port. */
function start(dataDir: string) {
  const config = loadConfig({
    SESSION_SECRET: TEST_SECRET,
    NOTES_BCRYPT_COST: "4",
    NOTES_ADDR: "127.0.0.1:0",
    NOTES_DATA_DIR: dataDir,
  });
  return startServer(config);
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  assert.ok(child.pid);
  return child.pid;
}

describe("one notes server per embedded data directory", () => {
  let root = "";
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "notes-lock-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it("refuses a second server on the same directory, naming it and the holder's pid", async () => {
    const dataDir = join(root, "shared");
    const first = await start(dataDir);
    try {
      await assert.rejects(start(dataDir), (error: Error) => {
        assert.ok(error.message.includes(resolve(dataDir)), error.message);
        assert.ok(error.message.includes(`pid ${process.pid}`), error.message);
        return true;
      });
      const answer = await fetch(`${first.url}/`);
      assert.equal(answer.status, 200, "the first server still answers");
    } finally {
      await first.close();
    }
    assert.equal(existsSync(join(dataDir, LOCK_FILE)), false, "clean shutdown removes the lock");
    const again = await start(dataDir);
    await again.close();
  });

  it("takes over a stale lock whose process is gone", async () => {
    const dataDir = join(root, "stale");
    mkdirSync(dataDir, { recursive: true });
    const lockPath = join(dataDir, LOCK_FILE);
    writeFileSync(lockPath, `${deadPid()}\n`);
    const server = await start(dataDir);
    try {
      assert.equal(readFileSync(lockPath, "utf8").split(" ")[0], String(process.pid));
    } finally {
      await server.close();
    }
    assert.equal(existsSync(lockPath), false);
  });
});
