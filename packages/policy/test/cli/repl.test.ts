/** `rego run` without --server: the REPL, driven through stdin of a spawned process. */
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { EXAMPLES_DIR, tempTree } from "../fixtures.js";

const MAIN = fileURLToPath(new URL("../../src/cli/main.js", import.meta.url));

/** A running `rego run ...` with everything it printed so far. */
class Shell {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [MAIN, "run", ...args], { stdio: "pipe" });
    this.child.stdout.on("data", (d: Buffer) => {
      this.stdout += d.toString();
    });
    this.child.stderr.on("data", (d: Buffer) => {
      this.stderr += d.toString();
    });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Waits (up to a generous deadline) until `test` holds for what was printed. */
  async until(test: () => boolean, what: string, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline)
        assert.fail(
          `timed out waiting for ${what}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Sends a statement and waits for the next prompt; returns what it printed. */
  async run(line: string): Promise<string> {
    const from = this.stdout.length;
    this.send(line);
    await this.until(() => /(^|\n)[>|] $/.test(this.stdout.slice(from)), `the answer to ${line}`);
    return this.stdout.slice(from).replace(/\n?[>|] $/, "");
  }

  stop(): void {
    this.child.kill();
  }
}

describe("rego run (REPL)", () => {
  it("evaluates queries against the loaded files and keeps rules typed in", async (t) => {
    const sh = new Shell([EXAMPLES_DIR]);
    t.after(() => sh.stop());
    await sh.until(() => sh.stdout.endsWith("> "), "the prompt");
    assert.match(sh.stdout, /Run 'help'/);
    assert.equal(await sh.run("data.user_roles.alice.role"), '"admin"');
    assert.equal(
      await sh.run("pi := 3.14"),
      "Rule 'pi' defined in package repl. Type 'show' to see rules.",
    );
    assert.equal(await sh.run("pi"), "3.14");
    assert.equal(
      await sh.run("pi := 3"),
      "Rule 'pi' re-defined in package repl. Type 'show' to see rules.",
    );
    // A rule over several lines: continued with "| " until its braces balance.
    assert.equal(await sh.run("big if {"), "");
    assert.equal(await sh.run("  pi > 2"), "");
    assert.match(await sh.run("}"), /Rule 'big' defined/);
    assert.equal(await sh.run("big"), "true");
    assert.equal(await sh.run("show"), "package repl\n\npi := 3\n\nbig if {\n  pi > 2\n}");
    assert.equal(await sh.run("unset big"), "");
    assert.equal(await sh.run("data.repl.big"), "undefined");
    assert.equal(await sh.run("input"), "undefined");
    await sh.run('input := {"name": "alice"}');
    assert.equal(await sh.run("input.name"), '"alice"');
    assert.equal(await sh.run("data.limits.allow"), "true");
    assert.match(await sh.run("help"), /unset <name>/);
    assert.match(await sh.run("data"), /"repl": \{\n\s+"pi": 3\n/);
    sh.send("exit");
    assert.equal(await sh.exited, 0);
  });

  it("reports errors and keeps going; ends at end of input", async (t) => {
    const sh = new Shell([EXAMPLES_DIR]);
    t.after(() => sh.stop());
    await sh.until(() => sh.stdout.endsWith("> "), "the prompt");
    await sh.run("1 +");
    await sh.until(() => /rego_parse_error/.test(sh.stderr), "the parse error");
    await sh.run("q := undefined_thing");
    await sh.until(() => /rego_unsafe_var_error|undefined/.test(sh.stderr), "the compile error");
    // The rule that failed to compile was not kept: `q` is an unknown var.
    assert.equal(await sh.run("q"), "");
    await sh.until(() => /var q is unsafe/.test(sh.stderr), "q's error");
    sh.child.stdin.end();
    assert.equal(await sh.exited, 0);
  });
});

describe("rego run --watch (REPL)", () => {
  const files = tempTree({ "w.rego": "package w\n\nx := 1\n" });
  after(() => files.remove());

  it("answers from changed files; a broken file keeps the last good set", async (t) => {
    const sh = new Shell(["--watch", files.dir]);
    t.after(() => sh.stop());
    await sh.until(() => sh.stdout.endsWith("> "), "the prompt");
    assert.equal(await sh.run("data.w.x"), "1");
    writeFileSync(join(files.dir, "w.rego"), "package w\n\nx := 2\n");
    await sh.until(() => /reloaded/.test(sh.stderr), "the reload");
    assert.equal(await sh.run("data.w.x"), "2");
    writeFileSync(join(files.dir, "w.rego"), "package w\n\nx := := 3\n");
    await sh.until(() => /reload failed/.test(sh.stderr), "the failed reload");
    assert.match(sh.stderr, /w\.rego:3:\d+: rego_parse_error/);
    assert.equal(await sh.run("data.w.x"), "2");
  });
});
