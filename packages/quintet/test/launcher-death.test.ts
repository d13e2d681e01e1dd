import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.js";

const cli = fileURLToPath(new URL("../src/cli.js", import.meta.url));
const fakeLauncher = fileURLToPath(new URL("./fake-launcher.js", import.meta.url));

/** Child programs: one that shuts down on SIGTERM (leaving a mark), one that ignores it. */
function scripts(): string {
  const root = mkdtempSync(join(tmpdir(), "quintet-orphan-"));
  writeFileSync(
    join(root, "graceful.mjs"),
    `import { createServer } from "node:http";
import { writeFileSync } from "node:fs";
const server = createServer((req, res) => res.end("ok"));
server.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  writeFileSync(new URL("./graceful-stopped", import.meta.url), "SIGTERM");
  server.close(() => process.exit(0));
});`,
  );
  writeFileSync(
    join(root, "stubborn.mjs"),
    `import { createServer } from "node:http";
createServer((req, res) => res.end("ok")).listen(Number(process.env.PORT), "127.0.0.1");
// Ignores SIGTERM and keeps its main thread busy, as a server stuck in a long computation.
process.on("SIGTERM", () => { for (;;) {} });`,
  );
  // Forks a helper process of its own over IPC, as the model server may for loaded models.
  writeFileSync(
    join(root, "forking.mjs"),
    `import { fork } from "node:child_process";
import { createServer } from "node:http";
const helper = fork(new URL("./helper.mjs", import.meta.url));
helper.once("message", (reply) => {
  console.log("helper said " + JSON.stringify(reply));
  createServer((req, res) => res.end("ok")).listen(Number(process.env.PORT), "127.0.0.1");
});
helper.send("ping");`,
  );
  writeFileSync(
    join(root, "helper.mjs"),
    `process.once("message", () => {
  process.send({ linked: process.env.QUINTET_PARENT_FD ?? null }, () => process.disconnect());
});`,
  );
  return root;
}

/** Whether pid is a live process (a zombie waiting for its new parent to reap it is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Polls until none of pids is alive or the generous bound passes; returns those still alive. */
async function survivors(pids: number[], boundMs = 20_000): Promise<number[]> {
  const deadline = Date.now() + boundMs;
  while (pids.some(alive) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pids.filter(alive);
}

/** Whether a new server can listen on the port now. */
function listensNow(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ host: "127.0.0.1", port, exclusive: true }, () =>
      server.close(() => resolve(true)),
    );
  });
}

/**
 * Whether a new server can listen on the port within a generous bound: right after a kill the
 * kernel may still be tearing down the dead process's connections for a moment.
 */
async function canListen(port: number, boundMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  while (!(await listensNow(port))) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Starts a launcher process and waits for "all components up"; returns the children's pids. */
async function startLauncher(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const launcher = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => launcher.once("exit", () => resolve()));
  let output = "";
  await new Promise<void>((resolve, reject) => {
    launcher.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      if (/all components up/.test(output)) resolve();
    });
    launcher.once("exit", () => reject(new Error(`launcher exited early:\n${output}`)));
  });
  // The launcher's "<name> up" records: JSON lines from the real CLI (stdout is a pipe),
  // text from the fake launcher.
  const pids = [
    ...output.matchAll(/"service":"quintet".*"pid":(\d+)|quintet: .* pid=(\d+)$/gm),
  ].map((m) => Number(m[1] ?? m[2]));
  return { launcher, exited, pids, output };
}

/** Kills leftovers so a failing test does not leave processes holding ports. */
function cleanUp(launcher: ChildProcess, pids: number[]): void {
  launcher.kill("SIGKILL");
  for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
}

describe("when the launcher dies, its children stop", () => {
  it("kill -9 of `quintet up greeter` stops the real greeter and frees its port", async () => {
    const port = await freePort();
    const env = { ...process.env, GREETER_ADDR: `127.0.0.1:${port}` };
    const { launcher, exited, pids } = await startLauncher([cli, "up", "greeter"], env);
    try {
      assert.equal(pids.length, 1);
      launcher.kill("SIGKILL");
      await exited;
      assert.deepEqual(await survivors(pids), [], "the greeter outlived the launcher");
      assert.ok(await canListen(port), `port ${port} is still held`);
    } finally {
      cleanUp(launcher, pids);
    }
  });

  it("kill -9 of the launcher: a graceful child gets SIGTERM, a stuck one is killed", async () => {
    const root = scripts();
    const ports = [await freePort(), await freePort()];
    const specs = [`web:graceful.mjs:${ports[0]}`, `stuck:stubborn.mjs:${ports[1]}`];
    const { launcher, exited, pids } = await startLauncher([
      fakeLauncher,
      root,
      "wait",
      "300",
      ...specs,
    ]);
    try {
      assert.equal(pids.length, 2);
      launcher.kill("SIGKILL");
      await exited;
      assert.deepEqual(await survivors(pids), [], "a child outlived the launcher");
      for (const port of ports) assert.ok(await canListen(port), `port ${port} is still held`);
      assert.ok(existsSync(join(root, "graceful-stopped")), "the graceful child got SIGTERM");
    } finally {
      cleanUp(launcher, pids);
    }
  });

  it("an uncaught exception in the launcher stops the children", async () => {
    const root = scripts();
    const port = await freePort();
    const { launcher, exited, pids } = await startLauncher([
      fakeLauncher,
      root,
      "throw",
      "300",
      `web:graceful.mjs:${port}`,
    ]);
    try {
      await exited;
      assert.equal(launcher.exitCode, 1);
      assert.deepEqual(await survivors(pids), [], "the child outlived the launcher");
      assert.ok(await canListen(port), `port ${port} is still held`);
      assert.ok(existsSync(join(root, "graceful-stopped")), "the child got SIGTERM");
    } finally {
      cleanUp(launcher, pids);
    }
  });

  it("a child's own forked helper keeps its IPC channel and is not linked to the launcher", async () => {
    const root = scripts();
    const port = await freePort();
    const { launcher, exited, pids, output } = await startLauncher([
      fakeLauncher,
      root,
      "wait",
      "300",
      `web:forking.mjs:${port}`,
    ]);
    try {
      assert.match(output, / INFO {2}web: helper said \{"linked":null\}$/m);
      launcher.kill("SIGKILL");
      await exited;
      assert.deepEqual(await survivors(pids), [], "the child outlived the launcher");
    } finally {
      cleanUp(launcher, pids);
    }
  });
});
