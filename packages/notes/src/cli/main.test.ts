import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { CliIo } from "@quintet/kit";
import { main } from "./main.js";

/** An in-process io whose output is collected and whose stop signal the test fires. */
function testIo(env: NodeJS.ProcessEnv) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = { stdout: "", stderr: "" };
  stdout.on("data", (chunk) => (out.stdout += chunk));
  stderr.on("data", (chunk) => (out.stderr += chunk));
  const controller = new AbortController();
  const stop = (signal: string) => controller.abort(signal);
  const io: CliIo = { stdout, stderr, env, signal: controller.signal };
  return { io, out, stop };
}

async function waitFor<T>(
  probe: () => T | undefined,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** GET with the path sent exactly as written (no normalisation of `..`). */
function rawGet(url: string, path: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { path }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the notes command line", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "notes-cli-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("prints usage and exits 2 without a command, 2 for an unknown one", async () => {
    const none = testIo({});
    assert.equal(await main([], none.io), 2);
    assert.match(none.out.stderr, /usage: notes <command>/);
    const unknown = testIo({});
    assert.equal(await main(["fly"], unknown.io), 2);
    assert.match(unknown.out.stderr, /unknown command "fly"/);
  });

  it("prints the configuration table on serve --help", async () => {
    const t = testIo({});
    assert.equal(await main(["serve", "--help"], t.io), 0);
    assert.match(
      t.out.stdout,
      /NOTES_ADDR +host:port to listen on .*\(default: 127\.0\.0\.1:8080\)/,
    );
    assert.match(t.out.stdout, /SESSION_SECRET/);
  });

  it("exits 2 on an unknown option", async () => {
    const t = testIo({});
    assert.equal(await main(["serve", "--bogus"], t.io), 2);
    assert.match(t.out.stderr, /bogus/);
  });

  it("refuses to start in production without SESSION_SECRET and says so", async () => {
    const t = testIo({ NODE_ENV: "production", NOTES_ADDR: "127.0.0.1:0" });
    assert.equal(await main(["serve"], t.io), 1);
    assert.match(t.out.stderr, /SESSION_SECRET: required when NODE_ENV=production/);
    assert.equal(t.out.stdout, "");
  });

  it("serves on an ephemeral port, announces the real URL, warns about the generated secret and stops on a signal", async () => {
    const t = testIo({ NOTES_ADDR: "127.0.0.1:0", NOTES_DATA_DIR: join(dir, "serve") });
    const exit = main(["serve"], t.io);
    const url = await waitFor(
      () => /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(t.out.stdout)?.[1],
      "the listening line",
    );
    assert.doesNotMatch(url, /:0$/);
    assert.match(t.out.stderr, /SESSION_SECRET is not set/);
    try {
      const home = await fetch(`${url}/`);
      assert.equal(home.status, 200);
      assert.match(await home.text(), /Welcome to Notes/);
      const traversal = await rawGet(url, "/static/../static/bootstrap.min.css");
      assert.deepEqual(traversal, { status: 302, location: "/login" });
    } finally {
      t.stop("SIGTERM");
    }
    assert.equal(await exit, 0);
  });

  it("fails with exit 1 naming the problem when PostgreSQL does not answer", async () => {
    const t = testIo({
      NOTES_ADDR: "127.0.0.1:0",
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
    });
    assert.equal(await main(["serve"], t.io), 1);
    assert.match(t.out.stderr, /cannot start: cannot connect to PostgreSQL/);
    assert.equal(t.out.stdout, "");
  });

  it("fails with exit 1 and a clear message when the port is taken", async () => {
    const first = testIo({ NOTES_ADDR: "127.0.0.1:0", NOTES_DATA_DIR: join(dir, "a") });
    const running = main(["serve"], first.io);
    const port = await waitFor(
      () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(first.out.stdout)?.[1],
      "the first server",
    );
    try {
      const second = testIo({ NOTES_ADDR: `127.0.0.1:${port}`, NOTES_DATA_DIR: join(dir, "b") });
      assert.equal(await main(["serve"], second.io), 1);
      assert.match(second.out.stderr, /cannot start: .*EADDRINUSE/);
    } finally {
      first.stop("SIGTERM");
    }
    assert.equal(await running, 0);
  });

  it("runs as the `notes` binary: prints the listening line and exits 0 on SIGTERM", async () => {
    const bin = fileURLToPath(new URL("../cli.js", import.meta.url));
    const child = spawn(process.execPath, [bin, "serve"], {
      env: {
        ...process.env,
        NOTES_ADDR: "127.0.0.1:0",
        NOTES_DATA_DIR: join(dir, "bin"),
        NOTES_LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (code) => resolve(code)),
    );
    try {
      const url = await waitFor(
        () => /listening on (http:\/\/[\d.]+:\d+)/.exec(stdout)?.[1],
        "the binary's listening line",
      );
      assert.equal((await fetch(`${url}/`)).status, 200);
    } finally {
      child.kill("SIGTERM");
    }
    assert.equal(await exited, 0);
  });

  it("refuses a second serve on the embedded data directory another process uses", async () => {
    const dataDir = join(dir, "locked");
    const bin = fileURLToPath(new URL("../cli.js", import.meta.url));
    const child = spawn(process.execPath, [bin, "serve"], {
      env: { ...process.env, NOTES_ADDR: "127.0.0.1:0", NOTES_DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    try {
      await waitFor(() => (stdout.includes("listening on") ? true : undefined), "the first server");
      const second = testIo({ NOTES_ADDR: "127.0.0.1:0", NOTES_DATA_DIR: dataDir });
      assert.equal(await main(["serve"], second.io), 1);
      assert.ok(
        second.out.stderr.includes(`data directory ${resolve(dataDir)}`),
        second.out.stderr,
      );
      assert.ok(second.out.stderr.includes(`(pid ${child.pid})`), second.out.stderr);
    } finally {
      child.kill("SIGTERM");
    }
    assert.equal(await exited, 0);
    assert.equal(existsSync(join(dataDir, "notes-serve.lock")), false);
  });
});
