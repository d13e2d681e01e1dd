import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { GreetCallError } from "../src/client.js";
import { clockAt, type RunningGreeter, startGreeter } from "./test-server.js";

describe("GreetService over a real gRPC connection", () => {
  const boundaries: [number, number, string][] = [
    [0, 0, "Good Morning"],
    [11, 59, "Good Morning"],
    [12, 0, "Good Afternoon"],
    [15, 59, "Good Afternoon"],
    [16, 0, "Good Evening"],
    [20, 59, "Good Evening"],
    [21, 0, "Good Night"],
    [23, 59, "Good Night"],
  ];
  for (const [hour, minute, phrase] of boundaries) {
    const time = `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
    it(`answers ${phrase} at ${time} local time`, async () => {
      const running = await startGreeter({ clock: clockAt(hour, minute) });
      try {
        const greeting = await running.client().greet("Ann");
        assert.equal(greeting.message, `Hello, Ann, ${phrase} !!!`);
        assert.equal(greeting.phrase, phrase);
        assert.equal(greeting.name, "Ann");
      } finally {
        await running.stop();
      }
    });
  }

  describe("bad input", () => {
    let running: RunningGreeter;
    before(async () => {
      running = await startGreeter({ clock: clockAt(9, 0) });
    });
    after(() => running.stop());

    async function expectStatus(name: string, statusName: string, detail: RegExp) {
      await assert.rejects(running.client().greet(name), (error: unknown) => {
        assert.ok(error instanceof GreetCallError);
        assert.equal(error.statusName, statusName);
        assert.match(error.details, detail);
        return true;
      });
    }

    it("rejects a missing name with INVALID_ARGUMENT", () =>
      expectStatus("", "INVALID_ARGUMENT", /name is required/));

    it("rejects a blank name with INVALID_ARGUMENT", () =>
      expectStatus("   ", "INVALID_ARGUMENT", /name must not be blank/));

    it("rejects a name over 256 characters with INVALID_ARGUMENT", () =>
      expectStatus("n".repeat(257), "INVALID_ARGUMENT", /too long: 257 characters/));

    it("keeps serving after bad input", async () => {
      await expectStatus("", "INVALID_ARGUMENT", /required/);
      const greeting = await running.client().greet("n".repeat(256));
      assert.equal(greeting.phrase, "Good Morning");
    });
  });

  it("gives DEADLINE_EXCEEDED when the deadline passes before the reply", async () => {
    // The reply is held until the client has given up, so the deadline decides, not a race.
    const gate = latch();
    const running = await startGreeter({ beforeReply: () => gate.opened });
    try {
      await assert.rejects(running.client().greet("Ann", { deadlineMs: 100 }), (error: unknown) => {
        assert.ok(error instanceof GreetCallError);
        assert.equal(error.statusName, "DEADLINE_EXCEEDED");
        return true;
      });
    } finally {
      gate.open();
      await running.stop();
    }
  });
});

describe("bearer-token authentication", () => {
  it("accepts calls without metadata when no token is configured", async () => {
    const running = await startGreeter({ clock: clockAt(13, 0) });
    try {
      assert.equal((await running.client().greet("Ann")).phrase, "Good Afternoon");
    } finally {
      await running.stop();
    }
  });

  it("requires `authorization: Bearer <token>` when a token is configured", async () => {
    const running = await startGreeter({ clock: clockAt(13, 0), token: "s3cret" });
    try {
      for (const client of [running.client(), running.client({ token: "wrong" })]) {
        await assert.rejects(client.greet("Ann"), (error: unknown) => {
          assert.ok(error instanceof GreetCallError);
          assert.equal(error.statusName, "UNAUTHENTICATED");
          assert.match(error.details, /bearer token/);
          return true;
        });
      }
      const greeting = await running.client({ token: "s3cret" }).greet("Ann");
      assert.equal(greeting.message, "Hello, Ann, Good Afternoon !!!");
    } finally {
      await running.stop();
    }
  });
});

describe("graceful shutdown", () => {
  it("lets an in-flight call finish, refusing new calls meanwhile", async () => {
    const arrived = latch();
    const reply = latch();
    const running = await startGreeter({
      clock: clockAt(22, 0),
      beforeReply: () => {
        arrived.open();
        return reply.opened;
      },
    });
    const events: string[] = [];
    const inFlight = running
      .client()
      .greet("Ann")
      .then((greeting) => {
        events.push("answered");
        return greeting;
      });
    await arrived.opened;
    const stopped = running.server.shutdown(60_000).then((result) => {
      events.push("stopped");
      return result;
    });
    // A call made after the shutdown began is refused while the first one is still held.
    await assert.rejects(running.client().greet("Bob"), (error: unknown) => {
      assert.ok(error instanceof GreetCallError);
      assert.equal(error.statusName, "UNAVAILABLE");
      return true;
    });
    events.push("refused");
    reply.open();
    const greeting = await inFlight;
    assert.equal(greeting.phrase, "Good Night");
    assert.deepEqual(await stopped, { forced: false });
    assert.deepEqual(events.slice(0, 1), ["refused"], "nothing ended before the reply was let go");
    assert.deepEqual([...events].sort(), ["answered", "refused", "stopped"]);
    await running.stop();
  });
});

/** A promise the test resolves when it chooses: an event to wait for or to release. */
function latch(): { opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
