/**
 * Time-outs and the per-address connection cap, over real sockets. Each suite sets tiny limits
 * in its configuration and checks what the server does (408/503, the connection closed), never
 * how long it took; the test time-out only turns a connection that is never closed into a
 * failure.
 */
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import type { OpenedStorage } from "./support/storage-targets.js";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { createTestApp, formBody, signUp } from "./support/test-app.js";

const pglite = STORAGE_TARGETS[0] as (typeof STORAGE_TARGETS)[number];
/** Only a connection the server never closes gets this far. */
const NEVER = { timeout: 30_000 };

/** What came back on a raw connection, and whether the server closed it. */
interface RawResult {
  text: string;
  closed: boolean;
}

/**
 * Opens a connection, writes `head`, then (with `trickle`) one more byte every 20 ms, and
 * resolves with everything received once the server closes the connection.
 */
function rawExchange(port: number, head: string, trickle = false): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // A reset after the answer still counts as closed by the server.
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE") reject(error);
    });
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ text, closed: true });
    });
    socket.write(head);
    if (trickle) timer = setInterval(() => socket.writable && socket.write("a"), 20);
  });
}

/** A socket that has had one complete `GET /` answered and stays open. */
function openAnsweredConnection(port: number): Promise<{ socket: net.Socket; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("error", reject);
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("</html>") || text.includes("\r\n\r\nToo many")) resolve({ socket, text });
    });
    socket.on("close", () => resolve({ socket, text }));
    socket.write("GET / HTTP/1.1\r\nHost: notes.test\r\n\r\n");
  });
}

const POST_HEAD = (length: number) =>
  `POST /login HTTP/1.1\r\nHost: notes.test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`;

describe("connection limits", () => {
  let storage: OpenedStorage;
  const apps: FastifyInstance[] = [];
  before(async () => {
    storage = await pglite.open();
  });
  after(async () => {
    for (const app of apps) await app.close();
    await storage.dispose();
  });

  /** Builds and starts an app with `env` on a free port; returns the port. */
  async function listening(env: Record<string, string>): Promise<number> {
    const app = await createTestApp(storage.db, env);
    apps.push(app);
    await app.listen({ host: "127.0.0.1", port: 0 });
    return (app.server.address() as AddressInfo).port;
  }

  describe("headers, whole-request and keep-alive time-outs", () => {
    let port: number;
    before(async () => {
      port = await listening({
        NOTES_HEADERS_TIMEOUT_MS: "300",
        NOTES_REQUEST_TIMEOUT_MS: "600",
        NOTES_BODY_IDLE_TIMEOUT_MS: "600000",
        NOTES_KEEP_ALIVE_TIMEOUT_MS: "300",
      });
    });

    it("answers 408 and closes a connection whose headers never finish", NEVER, async () => {
      const result = await rawExchange(port, "GET / HTTP/1.1\r\nHost: notes.test\r\n");
      assert.match(result.text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(result.text, /Request timed out !!! Headers must arrive within 0\.3 s/);
      assert.ok(result.closed);
    });

    it("answers 408 and closes a body sent a byte at a time", NEVER, async () => {
      // Bytes keep coming, so only the whole-request deadline can end this.
      const result = await rawExchange(port, POST_HEAD(50_000), true);
      assert.match(result.text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(result.text, /the whole request within 0\.6 s/);
      assert.ok(result.closed);
    });

    it("closes an idle keep-alive connection after answering", NEVER, async () => {
      const result = await rawExchange(port, "GET / HTTP/1.1\r\nHost: notes.test\r\n\r\n");
      assert.match(result.text, /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(result.text, /\r\nKeep-Alive: timeout=0\r\n/i);
      assert.ok(result.closed);
    });
  });

  describe("body idle time-out", () => {
    let port: number;
    before(async () => {
      port = await listening({
        NOTES_BODY_IDLE_TIMEOUT_MS: "300",
        NOTES_LOGIN_MAX_FAILURES: "1",
        NOTES_THROTTLE_DELAY_MS: "1500",
      });
      await signUp(apps.at(-1) as FastifyInstance, "idle@example.com", "idle password");
    });

    it("answers 408 and closes a request whose body stops arriving", NEVER, async () => {
      const result = await rawExchange(port, `${POST_HEAD(100)}email=idle%40`);
      assert.match(result.text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(result.text, /Nothing arrived for 0\.3 s in the middle of a request/);
      assert.ok(result.closed);
    });

    it("leaves alone a request that is complete while the server works on it", NEVER, async () => {
      const body = formBody({ email: "idle@example.com", password: "wrong" });
      // HTTP/1.0: the server closes the connection after its answer.
      const loginOnce = () =>
        rawExchange(port, `${POST_HEAD(Buffer.byteLength(body)).replace("1.1", "1.0")}${body}`);
      assert.match((await loginOnce()).text, /^HTTP\/1\.1 401 /);
      // Throttled now: this answer is held back longer than the idle time-out, yet it arrives.
      const result = await loginOnce();
      assert.match(result.text, /^HTTP\/1\.1 429 /);
      assert.match(result.text, /Too many failed logins/);
    });
  });

  describe("connections per client address", () => {
    let port: number;
    before(async () => {
      port = await listening({ NOTES_MAX_CONNECTIONS_PER_ADDRESS: "2" });
    });

    it(
      "answers 503 to a connection over the cap, and admits one again when one closes",
      NEVER,
      async () => {
        const first = await openAnsweredConnection(port);
        const second = await openAnsweredConnection(port);
        assert.match(first.text, /^HTTP\/1\.1 200 /);
        assert.match(second.text, /^HTTP\/1\.1 200 /);
        const third = await rawExchange(port, "GET / HTTP/1.1\r\nHost: notes.test\r\n\r\n");
        assert.match(third.text, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
        assert.match(
          third.text,
          /Too many connections from your address !!! At most 2 at a time\./,
        );
        assert.ok(third.closed);
        second.socket.destroy();
        // The server sees the close when it sees it: try until a place is free.
        let again = await openAnsweredConnection(port);
        for (let i = 0; i < 200 && !/^HTTP\/1\.1 200 /.test(again.text); i++) {
          await delay(20);
          again = await openAnsweredConnection(port);
        }
        assert.match(again.text, /^HTTP\/1\.1 200 /);
        first.socket.destroy();
        again.socket.destroy();
      },
    );
  });

  describe("refusals held back (NOTES_THROTTLE_DELAY_MS)", () => {
    let port: number;
    before(async () => {
      port = await listening({
        NOTES_MAX_CONNECTIONS_PER_ADDRESS: "1",
        NOTES_THROTTLE_DELAY_MS: "1500",
      });
    });

    it(
      "serves nothing to a held refusal and drops refusals past the cap unanswered",
      NEVER,
      async () => {
        const first = await openAnsweredConnection(port);
        assert.match(first.text, /^HTTP\/1\.1 200 /);
        const closedOrder: string[] = [];
        const over = ["a", "b"].map((name) =>
          rawExchange(port, "GET / HTTP/1.1\r\nHost: notes.test\r\n\r\n").then((result) => {
            closedOrder.push(name);
            return { name, ...result };
          }),
        );
        const results = await Promise.all(over);
        // One waits for its 503 (its request is never served); the other, past the number of
        // refusals that may wait, is closed without an answer, and before the held one.
        const answered = results.filter((r) => r.text !== "");
        const dropped = results.filter((r) => r.text === "");
        assert.equal(answered.length, 1, JSON.stringify(results));
        assert.equal(dropped.length, 1, JSON.stringify(results));
        assert.match(answered[0]?.text ?? "", /^HTTP\/1\.1 503 Service Unavailable\r\n/);
        assert.doesNotMatch(answered[0]?.text ?? "", /HTTP\/1\.1 200/);
        assert.deepEqual(closedOrder, [dropped[0]?.name, answered[0]?.name]);
        first.socket.destroy();
      },
    );
  });
});
