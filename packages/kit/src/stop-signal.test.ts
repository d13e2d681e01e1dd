import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type SecondSignal, stopSignal, stopSignalNames, whenAborted } from "./stop-signal.js";

/** The listeners `act` added to `name`, so a test calls them as a signal would. */
function addedListeners(name: NodeJS.Signals, act: () => void): (() => void)[] {
  const before = process.listeners(name);
  act();
  return process.listeners(name).filter((l) => !before.includes(l)) as (() => void)[];
}

const dir = mkdtempSync(join(tmpdir(), "kit-stop-signal-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A child that prints "ready", then "aborted <reason>" when its stop signal aborts, and exits
 * 0 when it reads "exit" on stdin.
 */
const childScript = join(dir, "child.mjs");
writeFileSync(
  childScript,
  `import { stopSignal } from ${JSON.stringify(new URL("./stop-signal.js", import.meta.url).href)};
const signal = stopSignal({ secondSignal: process.argv[2] });
signal.addEventListener("abort", () => console.log("aborted " + signal.reason));
process.stdin.on("data", (d) => { if (String(d).includes("exit")) process.exit(0); });
console.log("ready");
`,
);

/** Starts the child and resolves once it printed `line`; `waitFor` waits for the next. */
function startChild(secondSignal: SecondSignal) {
  const child = spawn(process.execPath, [childScript, secondSignal], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  const waiters: { line: string; resolve: () => void }[] = [];
  child.stdout.on("data", (chunk) => {
    out += chunk;
    for (const w of waiters.filter((w) => out.includes(w.line))) w.resolve();
  });
  const waitFor = (line: string) =>
    new Promise<void>((resolve) => {
      if (out.includes(line)) resolve();
      else waiters.push({ line, resolve });
    });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, waitFor, exited, output: () => out };
}

describe("stopSignal", () => {
  for (const name of stopSignalNames) {
    it(`aborts on ${name} with the signal's name as reason, then stops listening`, () => {
      let signal: AbortSignal | undefined;
      const [listener] = addedListeners(name, () => {
        signal = stopSignal();
      });
      assert.ok(signal !== undefined && listener !== undefined);
      assert.equal(signal.aborted, false);
      listener();
      assert.equal(signal.aborted, true);
      assert.equal(signal.reason, name);
      for (const other of stopSignalNames) {
        assert.ok(!process.listeners(other).includes(listener), `${other} listener left behind`);
      }
    });
  }

  it("keeps listening with secondSignal ignored, and the first reason stays", () => {
    let signal: AbortSignal | undefined;
    const [onInt] = addedListeners("SIGINT", () => {
      signal = stopSignal({ secondSignal: "ignored" });
    });
    const onTerm = process.listeners("SIGTERM").at(-1) as () => void;
    assert.ok(signal !== undefined && onInt !== undefined);
    try {
      onInt();
      onTerm();
      assert.equal(signal.reason, "SIGINT");
      assert.ok(process.listeners("SIGINT").includes(onInt));
    } finally {
      process.removeListener("SIGINT", onInt);
      process.removeListener("SIGTERM", onTerm);
    }
  });

  it("lets a real second SIGINT end the process by default", async () => {
    const run = startChild("exits");
    await run.waitFor("ready");
    run.child.kill("SIGINT");
    await run.waitFor("aborted SIGINT");
    run.child.kill("SIGINT");
    const [code, signal] = await run.exited;
    assert.deepEqual({ code, signal }, { code: null, signal: "SIGINT" });
  });

  it("survives a real second SIGTERM when told to ignore it", async () => {
    const run = startChild("ignored");
    await run.waitFor("ready");
    run.child.kill("SIGTERM");
    await run.waitFor("aborted SIGTERM");
    run.child.kill("SIGTERM");
    run.child.stdin.end("exit\n");
    const [code, signal] = await run.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null });
    assert.equal(run.output().match(/aborted/g)?.length, 1, run.output());
  });
});

describe("whenAborted", () => {
  it("resolves with the reason, at once when the signal has already aborted", async () => {
    const controller = new AbortController();
    const waiting = whenAborted(controller.signal);
    controller.abort("SIGTERM");
    assert.equal(await waiting, "SIGTERM");
    assert.equal(await whenAborted(controller.signal), "SIGTERM");
  });
});
