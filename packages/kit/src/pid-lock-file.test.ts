import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { type PidLockRefusal, takeoverGuardPath, takePidLock } from "./pid-lock-file.js";

const linux = existsSync("/proc/self/stat") ? false : "needs Linux /proc";
const root = mkdtempSync(join(tmpdir(), "kit-pid-lock-"));
after(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
/** A fresh directory and the lock path inside it. */
function lockPath(): string {
  const dir = join(root, String(dirs++));
  mkdirSync(dir);
  return join(dir, "data.lock");
}

class Refused extends Error {
  constructor(readonly why: PidLockRefusal) {
    super(`refused: ${JSON.stringify(why)}`);
  }
}
const take = (path: string) => takePidLock(path, (why) => new Refused(why));

/** The refusal `take(path)` throws. */
function refusalOf(path: string): PidLockRefusal {
  try {
    take(path).release();
  } catch (error) {
    if (error instanceof Refused) return error.why;
    throw error;
  }
  assert.fail("the lock was taken");
}

/** Field 3 (state) and 22 (start time) of /proc/<pid>/stat. */
function procStat(pid: number): { state: string; start: string } {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", start: fields[19] ?? "" };
}
const bootId = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();

/** The record a process with this pid, start time and boot id would write. */
const recordOf = (pid: number, start: string, boot: string) => `${pid} ${start} ${boot} 0123abcd\n`;

/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ["-e", ""]).pid;
  assert.ok(pid);
  return pid;
}

/** A process that runs until killed, and resolves once it has started. */
async function liveChild(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ["-e", "console.log('up'); setInterval(() => {}, 1e5)"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  await once(child.stdout, "data");
  assert.ok(child.pid);
  return child as ChildProcess & { pid: number };
}

/** Kills a child with SIGKILL and waits until it has been reaped. */
async function killHard(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

/** Takes the lock at `path` and asserts it now holds our record and nothing else is left. */
function assertTakes(path: string): void {
  const lock = take(path);
  assert.match(readFileSync(path, "utf8"), new RegExp(`^${process.pid}\\s`));
  lock.release();
  assert.deepEqual(readdirSync(join(path, "..")), [], "release leaves the directory empty");
}

describe("pid lock file: one holder", () => {
  it("writes its record, refuses a second take in the same process, and releases once", () => {
    const path = lockPath();
    const lock = take(path);
    const record = readFileSync(path, "utf8");
    assert.match(record, new RegExp(`^${process.pid} \\S+ \\S+ [0-9a-f]+\\n$`));
    assert.deepEqual(refusalOf(path), { holder: process.pid });
    assert.equal(readFileSync(path, "utf8"), record, "the refused take left the lock alone");
    lock.release();
    lock.release();
    assert.deepEqual(readdirSync(join(path, "..")), []);
  });

  it("release leaves a lock file that is no longer ours", () => {
    const path = lockPath();
    const lock = take(path);
    writeFileSync(path, "1 2 3 abcd\n");
    lock.release();
    assert.equal(readFileSync(path, "utf8"), "1 2 3 abcd\n");
  });

  it("takes over the bare pid of a process that is gone (an older version's file)", () => {
    const path = lockPath();
    writeFileSync(path, `${deadPid()}\n`);
    assertTakes(path);
  });
});

describe("pid lock file: recognising a stale lock", { skip: linux }, () => {
  it("refuses while its holder runs, and takes over after kill -9", async () => {
    const path = lockPath();
    const holder = await liveChild();
    try {
      writeFileSync(path, recordOf(holder.pid, procStat(holder.pid).start, bootId()));
      assert.deepEqual(refusalOf(path), { holder: holder.pid });
    } finally {
      await killHard(holder);
    }
    assertTakes(path);
  });

  it("takes over a lock whose holder is a zombie (exited, not reaped)", async () => {
    // `sleep 0` exits at once; its parent, exec'd into `sleep`, never reaps it.
    const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 100"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    try {
      const [chunk] = (await once(parent.stdout, "data")) as [Buffer];
      const zombie = Number(chunk.toString().trim());
      while (procStat(zombie).state !== "Z") await sleep(10);
      const start = procStat(zombie).start;
      for (const record of [recordOf(zombie, start, bootId()), `${zombie}\n`]) {
        const path = lockPath();
        writeFileSync(path, record);
        assertTakes(path);
      }
      assert.equal(procStat(zombie).state, "Z", "the holder was a zombie throughout");
    } finally {
      await killHard(parent);
    }
  });

  it("takes over a lock whose pid now belongs to another process (pid reuse)", async () => {
    const path = lockPath();
    const other = await liveChild();
    try {
      const start = procStat(other.pid).start;
      writeFileSync(path, recordOf(other.pid, `${Number(start) - 1}`, bootId()));
      assertTakes(path);
    } finally {
      await killHard(other);
    }
  });

  it("takes over a record of our own pid from another start (a restart as pid 1)", () => {
    const start = procStat(process.pid).start;
    for (const record of [
      recordOf(process.pid, `${Number(start) - 1}`, bootId()),
      `${process.pid}\n`,
    ]) {
      const path = lockPath();
      writeFileSync(path, record);
      assertTakes(path);
    }
  });

  it("takes over a record from another boot, even when its pid and start match a process", () => {
    const path = lockPath();
    const other = bootId().replace(/^./, (c) => (c === "0" ? "1" : "0"));
    writeFileSync(path, recordOf(process.pid, procStat(process.pid).start, other));
    assertTakes(path);
  });

  it("treats a file without a record as stale once it is older than a moment", () => {
    for (const text of ["", "garbage\n"]) {
      const path = lockPath();
      writeFileSync(path, text);
      const old = new Date(Date.now() - 60_000);
      utimesSync(path, old, old);
      assertTakes(path);
    }
    // A fresh one may still be written by an older version: it is waited out, then taken.
    const path = lockPath();
    writeFileSync(path, "");
    assertTakes(path);
  });
});

/** Arguments that run a command as pid 1 of a fresh pid namespace, where this machine allows. */
const asPidOne = ["-r", "-p", "-f", "--mount-proc"];
const pidOneProbe = spawnSync("unshare", [...asPidOne, "sh", "-c", "echo $$"], {
  encoding: "utf8",
});
const pidOne = pidOneProbe.stdout?.trim() === "1" ? false : "unshare cannot start a pid namespace";

/** Runs a process as pid 1 of a new pid namespace that takes the lock and ends without release. */
function takeAsPidOne(path: string): { pid: number; won: boolean; why?: PidLockRefusal } {
  const code = `
    import { takePidLock } from ${JSON.stringify(new URL("./pid-lock-file.js", import.meta.url).href)};
    let answer = { pid: process.pid, won: true };
    try { takePidLock(process.argv[1], (why) => Object.assign(new Error("refused"), { why })); }
    catch (error) { answer = { pid: process.pid, won: false, why: error.why }; }
    console.log(JSON.stringify(answer));`;
  const run = spawnSync(
    "unshare",
    [...asPidOne, process.execPath, "--input-type=module", "-e", code, path],
    { encoding: "utf8" },
  );
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

describe("pid lock file: a server that is pid 1 of its container", {
  skip: linux || pidOne,
}, () => {
  it("takes over the lock a crashed pid 1 left behind", () => {
    const path = lockPath();
    assert.deepEqual(takeAsPidOne(path), { pid: 1, won: true });
    const left = readFileSync(path, "utf8");
    assert.match(left, /^1\s/);
    assert.deepEqual(takeAsPidOne(path), { pid: 1, won: true });
    assert.notEqual(readFileSync(path, "utf8"), left, "the second pid 1 wrote its own record");
  });
});

describe("pid lock file: takeover guards", { skip: linux }, () => {
  it("recovers from a taker that crashed while holding the takeover guard", () => {
    const path = lockPath();
    writeFileSync(path, `${deadPid()}\n`);
    const guard = takeoverGuardPath(path);
    assert.ok(guard);
    writeFileSync(guard, recordOf(deadPid(), "1", bootId()));
    assertTakes(path);
  });

  it("never removes a stale lock while a live taker holds its guard", async () => {
    const path = lockPath();
    const stale = `${deadPid()}\n`;
    writeFileSync(path, stale);
    const guard = takeoverGuardPath(path);
    assert.ok(guard);
    const taker = await liveChild();
    try {
      writeFileSync(guard, recordOf(taker.pid, procStat(taker.pid).start, bootId()));
      assert.deepEqual(refusalOf(path), { race: true });
      assert.equal(readFileSync(path, "utf8"), stale);
    } finally {
      await killHard(taker);
    }
  });
});

/** A child process that takes the lock at `path` when told to, at a shared instant. */
const contenderCode = `
import { takePidLock } from ${JSON.stringify(new URL("./pid-lock-file.js", import.meta.url).href)};
const wait = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
process.on("message", (message) => {
  if (message.go === undefined) process.exit(0);
  wait(message.go - Date.now());
  let answer;
  try {
    takePidLock(process.env.LOCK_PATH, (why) => Object.assign(new Error("refused"), { why }));
    answer = { won: true };
  } catch (error) {
    answer = { won: false, why: error.why ?? { error: String(error) } };
  }
  process.send(answer);
});
process.send({ ready: true });
`;

type Answer = { won: boolean; why?: PidLockRefusal | { error: string } };

/** Starts `count` contenders, lets them all take the lock at once, and collects their answers. */
async function contend(path: string, count: number): Promise<Map<number, Answer>> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ["--input-type=module", "-e", contenderCode], {
      env: { ...process.env, LOCK_PATH: path },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    }),
  );
  const answers = new Map<number, Answer>();
  try {
    await Promise.all(children.map((child) => once(child, "message")));
    const asked = children.map(async (child) => {
      const [answer] = (await once(child, "message")) as [Answer];
      answers.set(child.pid ?? 0, answer);
    });
    const go = Date.now() + 500;
    for (const child of children) child.send({ go });
    await Promise.all(asked);
  } finally {
    // Every contender holds on until all have answered, so the winner's lock stays live.
    await Promise.all(
      children.map((child) => {
        const exited = once(child, "exit");
        if (child.connected) child.send({});
        else child.kill();
        return exited;
      }),
    );
  }
  return answers;
}

/** Asserts exactly one winner, which the lock file names, and refusals for all others. */
function assertOneWinner(path: string, answers: Map<number, Answer>, count: number): number {
  assert.equal(answers.size, count);
  const winners = [...answers].filter(([, answer]) => answer.won).map(([pid]) => pid);
  assert.equal(winners.length, 1, `winners: ${winners.join(", ")}`);
  const winner = winners[0] ?? 0;
  assert.match(readFileSync(path, "utf8"), new RegExp(`^${winner}\\s`));
  for (const [pid, answer] of answers) {
    if (pid === winner) continue;
    const why = answer.why;
    const known = why && ("race" in why || ("holder" in why && why.holder === winner));
    assert.ok(known, `${pid}: ${JSON.stringify(why)}`);
  }
  assert.deepEqual(readdirSync(join(path, "..")), ["data.lock"], "no temporary files or guards");
  return winner;
}

describe("pid lock file: simultaneous takers", () => {
  it("lets exactly one of 50 simultaneous processes in", async () => {
    const path = lockPath();
    const answers = await contend(path, 50);
    const winner = assertOneWinner(path, answers, 50);
    for (const [pid, answer] of answers) {
      if (pid !== winner) assert.deepEqual(answer.why, { holder: winner });
    }
  });

  it("lets exactly one of 50 simultaneous processes take over a stale lock", async () => {
    const path = lockPath();
    writeFileSync(path, `${deadPid()}\n`);
    assertOneWinner(path, await contend(path, 50), 50);
  });
});
