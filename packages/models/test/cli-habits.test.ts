// Ollama's CLI habits in llmsrv: version lines, run's flags, piped stdin, session Modelfile.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { API_VERSION } from "../src/service/deps.js";
import { cli } from "./cli-run.js";
import { postJson, startTestServer, storiesSkip, type TestServer } from "./harness.js";
import { TestRegistry } from "./registry-server.js";
import { createStories } from "./stories-model.js";

describe("llmsrv --version, -v, version", () => {
  it("prints the server's version when one answers and it is the client's", async () => {
    const server = await startTestServer({}, { ensureDemo: false });
    try {
      const env = { LLMSRV_HOST: `127.0.0.1:${server.port}` };
      for (const args of [["--version"], ["-v"], ["version"]]) {
        const r = await cli(args, env);
        assert.deepEqual(
          [r.code, r.stdout, r.stderr],
          [0, `llmsrv version is ${API_VERSION}\n`, ""],
        );
      }
      const extra = await cli(["version", "now"], env);
      assert.equal(extra.code, 2);
      assert.match(extra.stderr, /Usage: llmsrv version/);
    } finally {
      await server.stop();
    }
  });

  it("warns, and still exits 0, when no server answers", async () => {
    const r = await cli(["-v"], { LLMSRV_HOST: "127.0.0.1:1" });
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      "Warning: could not connect to a running llmsrv instance\n" +
        `Warning: client version is ${API_VERSION}\n`,
    );
  });

  it("warns with the client's version when the server's differs", async () => {
    const other = createServer((_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.end('{"version":"0.0.1"}');
    });
    await new Promise<void>((done) => other.listen(0, "127.0.0.1", done));
    try {
      const port = (other.address() as AddressInfo).port;
      const r = await cli(["--version"], { LLMSRV_HOST: `127.0.0.1:${port}` });
      assert.equal(r.code, 0);
      assert.equal(
        r.stdout,
        `llmsrv version is 0.0.1\nWarning: client version is ${API_VERSION}\n`,
      );
    } finally {
      await new Promise((done) => other.close(done));
    }
  });
});

describe("llmsrv run: flags, piped stdin, wrapping, session Modelfile", {
  timeout: 240_000,
}, () => {
  let registry: TestRegistry;
  let server: TestServer;
  let env: Record<string, string>;

  before(async () => {
    registry = await new TestRegistry().start();
    server = await startTestServer({ LLMSRV_REGISTRY: registry.url });
    env = { LLMSRV_HOST: `127.0.0.1:${server.port}` };
    // A model with parameters of its own, which the session's /set values replace.
    const det = await postJson(`${server.url}/api/create`, {
      model: "det",
      from: "demo",
      parameters: { temperature: 0, num_predict: 24 },
      stream: false,
    });
    assert.equal(det.status, 200, det.text);
  });
  after(async () => {
    await server.stop();
    await registry.stop();
  });

  it("rejects bad flag values with exit 2, naming the flag", async () => {
    for (const [args, flag] of [
      [["--think=maybe"], /invalid value for --think: "maybe"/],
      [["--keepalive", "soon"], /invalid value for --keepalive: "soon"/],
      [["--format", "xml"], /invalid value for --format: "xml"/],
      [["--nowordwrap=no"], /nowordwrap/],
      [["--hidethinking=1"], /hidethinking/],
    ] as const) {
      const r = await cli(["run", "det", "hi", ...args], env);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, flag);
      assert.match(r.stderr, /Usage: llmsrv run MODEL/);
      assert.equal(r.stdout, "");
    }
  });

  it("--think reaches the chat request; a model without thinking refuses it", async () => {
    const r = await cli(["run", "det", "hi", "--think"], env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^Error: .*does not support thinking/m);
    const off = await cli(["run", "det", "hi", "--think=false"], env);
    assert.equal(off.code, 0, off.stderr);
  });

  it("--insecure is passed to the pull run makes for a missing model", async () => {
    const target = `${new URL(registry.url).host}/me/insec:v1`;
    await postJson(`${server.url}/api/copy`, { source: "det", destination: target });
    assert.equal((await cli(["push", target, "--insecure"], env)).code, 0);
    await postJson(`${server.url}/api/delete`, { model: target }, { method: "DELETE" });
    const r = await cli(["run", target, "hi", "--insecure"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^pulling manifest\n(.*\n)*success\n/);
  });

  it("/show modelfile, parameters and system carry the session's /set values", async () => {
    const script = [
      "/show system",
      "/set system Be brief.",
      "/set parameter num_predict 3",
      "/set parameter stop <end>",
      "/show modelfile",
      "/show parameters",
      "/show system",
      "/show bogus",
      "/bye",
    ];
    const r = await cli(["run", "det"], env, `${script.join("\n")}\n`, { stdinTty: true });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^No system message was specified for this model\.\n/);
    const modelfile = r.stdout.slice(r.stdout.indexOf("# Modelfile generated"));
    assert.match(modelfile, /^FROM \S+\nSYSTEM """Be brief\."""\n/m);
    assert.match(modelfile, /^PARAMETER temperature 0\n/m, "the model's own parameter stays");
    assert.match(modelfile, /^PARAMETER num_predict 3\nPARAMETER stop "<end>"\n/m);
    assert.doesNotMatch(modelfile, /PARAMETER num_predict 24/, "the session's value replaced it");
    assert.match(
      r.stdout,
      /Model defined parameters:\n( {2}.*\n)*\nUser defined parameters:\n {2}num_predict {20}3\n {2}stop {27}\[<end>\]\n/,
    );
    assert.match(r.stdout, /\nBe brief\.\n\n/);
    assert.match(r.stdout, /Unknown command '\/show bogus'\. Type \/\? for help/);
  });
});

describe("llmsrv run on stories260K: piped stdin, wrapping, thinking", {
  skip: storiesSkip(),
  timeout: 240_000,
}, () => {
  let server: TestServer;
  let env: Record<string, string>;
  const prompt = "Once upon a time, there was a";

  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    env = { LLMSRV_HOST: `127.0.0.1:${server.port}` };
    await createStories(server.url, "thinker", {
      // Past reasoning in <think> tags, and the flag opening a new one (as thinking.test.ts).
      template:
        "{{- range .Messages }}{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}{{ end }}{{ if .Think }}<think>{{ end }}",
      parameters: { temperature: 0, num_predict: 10 },
    });
    // Greedy, so the same prompt gets the same answer.
    await createStories(server.url, "teller", { parameters: { temperature: 0, num_predict: 30 } });
  });
  after(() => server.stop());

  it("piped stdin is one prompt, no prompts printed; prompt words follow it", async () => {
    const asArg = await cli(["run", "teller", "hello\n/bye\nmore"], env);
    assert.equal(asArg.code, 0, asArg.stderr);
    const piped = await cli(["run", "teller"], env, "hello\n/bye\nmore");
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout, asArg.stdout, "the whole input, /bye included, was the prompt");
    assert.doesNotMatch(piped.stderr + piped.stdout, />>> |Use Ctrl \+ d/);
    const joined = await cli(["run", "teller", "hello there"], env);
    const both = await cli(["run", "teller", "there"], env, "hello");
    assert.equal(both.stdout, joined.stdout, "stdin, a space, then the prompt words");
    const other = await cli(["run", "teller", "Once upon a time"], env);
    assert.notEqual(other.stdout, asArg.stdout, "the answer depends on the prompt");
    const empty = await cli(["run", "teller"], env, "");
    assert.deepEqual([empty.code, empty.stdout], [0, ""], "empty input only loads the model");
  });

  it("wraps at the terminal's width unless --nowordwrap, and never off a terminal", async () => {
    const plain = await cli(["run", "teller", "hi"], env);
    const wrapped = await cli(["run", "teller", "hi"], env, "", { stdoutColumns: 20 });
    const nowrap = await cli(["run", "teller", "hi", "--nowordwrap"], env, "", {
      stdoutColumns: 20,
    });
    assert.ok(
      plain.stdout.split("\n").some((l) => l.length > 15),
      `an answer wider than the terminal: ${JSON.stringify(plain.stdout)}`,
    );
    assert.notEqual(wrapped.stdout, plain.stdout);
    assert.equal(nowrap.stdout, plain.stdout);
    assert.deepEqual(wrapped.stdout.split(/\s+/), plain.stdout.split(/\s+/), "same words");
    for (const line of wrapped.stdout.split("\n")) {
      assert.ok(line.length <= 15 || !line.includes(" "), `line within 15 columns: "${line}"`);
      assert.ok(!line.endsWith(" "), `no trailing space: "${line}"`);
    }
  });

  it("prints the reasoning between Thinking... and ...done thinking.", async () => {
    const r = await cli(["run", "thinker", prompt], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Thinking\.\.\.\n[\s\S]+\n\.\.\.done thinking\.\n\n/);
    assert.ok(!r.stdout.includes("\u001b["), "no colours off a terminal");
  });

  it("--hidethinking leaves it out; --think=false does not think at all", async () => {
    const hidden = await cli(["run", "thinker", prompt, "--hidethinking"], env);
    assert.equal(hidden.code, 0, hidden.stderr);
    assert.doesNotMatch(hidden.stdout, /Thinking\.\.\.|done thinking/);
    const off = await cli(["run", "thinker", prompt, "--think=false"], env);
    assert.equal(off.code, 0, off.stderr);
    assert.doesNotMatch(off.stdout, /Thinking\.\.\./);
    assert.ok(off.stdout.trim().length > 0, "the answer is all content");
  });
});
