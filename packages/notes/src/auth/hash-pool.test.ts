import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { after, describe, it } from "node:test";
import { threadId } from "node:worker_threads";
import { AbortedJobError, createHashPool } from "./hash-pool.js";
import { HASH_THREAD_NICE } from "./hash-worker.js";
import { createPasswordHasher } from "./password.js";

describe("the password hashing pool", () => {
  const pool = createHashPool(2);
  after(() => pool.close());

  it("hashes and verifies on worker threads, never on the event loop's thread", async () => {
    const hashed = await pool.hash("correct horse", 4);
    assert.notEqual(hashed.threadId, threadId);
    assert.match(hashed.value, /^\$2[ab]\$04\$.{53}$/);
    const right = await pool.verify("correct horse", hashed.value);
    const wrong = await pool.verify("wrong horse", hashed.value);
    assert.deepEqual([right.value, wrong.value], [true, false]);
    assert.notEqual(right.threadId, threadId);
  });

  it("spreads simultaneous jobs over its threads and queues the rest", async () => {
    const jobs = Array.from({ length: 6 }, (_, i) => pool.hash(`password ${i}`, 6));
    assert.ok(pool.queued() > 0, "more jobs than threads wait in the queue");
    const results = await Promise.all(jobs);
    assert.equal(new Set(results.map((r) => r.threadId)).size, 2);
    assert.equal(pool.queued(), 0);
  });

  it("fails a job whose stored hash is malformed, and keeps working", async () => {
    const malformed = `$2b$04$${"!".repeat(53)}`;
    await assert.rejects(pool.verify("x", malformed), /password hashing failed/);
    assert.equal((await pool.verify("x", (await pool.hash("x", 4)).value)).value, true);
  });

  it("drops a queued job whose request was abandoned, and never runs it", async () => {
    const single = createHashPool(1);
    try {
      const running = single.hash("first", 10);
      const controller = new AbortController();
      const abandoned = single.hash("second", 10, controller.signal);
      assert.equal(single.queued(), 1);
      controller.abort();
      await assert.rejects(abandoned, AbortedJobError);
      assert.equal(single.queued(), 0, "the job left the queue");
      assert.match((await running).value, /^\$2[ab]\$10\$/);
      await assert.rejects(single.hash("third", 4, AbortSignal.abort()), AbortedJobError);
    } finally {
      await single.close();
    }
  });

  it("runs its threads at a lower priority than the event loop (Linux)", {
    skip: existsSync("/proc/thread-self") ? undefined : "no /proc/thread-self",
  }, async () => {
    await Promise.all([pool.hash("a", 4), pool.hash("b", 4), pool.hash("c", 4)]);
    const niceOf = (tid: string) =>
      Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]?.split(" ")[16]);
    const nices = readdirSync("/proc/self/task").map(niceOf);
    assert.equal(nices.filter((n) => n === HASH_THREAD_NICE).length, pool.size);
    assert.equal(getPriority(process.pid), 0, "the event loop's thread keeps its priority");
  });

  it("refuses jobs once closed", async () => {
    const closing = createHashPool(1);
    await closing.hash("x", 4);
    const running = closing.hash("running at shutdown", 10);
    const queued = closing.hash("queued at shutdown", 10);
    // Left over at shutdown: dropped like an abandoned request, not a fault.
    const dropped = [
      assert.rejects(running, AbortedJobError),
      assert.rejects(queued, AbortedJobError),
    ];
    await closing.close();
    await Promise.all(dropped);
    await assert.rejects(closing.hash("x", 4), /closed/);
  });
});

describe("the password hasher", () => {
  const hasher = createPasswordHasher(4, 1);
  after(() => hasher.close());

  it("reads a malformed stored hash as no match", async () => {
    assert.equal(await hasher.verify("x", `$2b$04$${"!".repeat(53)}`), false);
    assert.equal(await hasher.verify("pw", await hasher.hash("pw")), true);
  });
});
