import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { main } from "../src/cli/main.js";
import { createTinyModel, postJson, startTestServer, type TestServer } from "./harness.js";

type Json = Record<string, unknown>;
const DIGEST = `sha256:${"a".repeat(64)}`;

/** LoRA adapters cannot be applied here: a create that names any is refused, never dropped. */
describe("adapters in /api/create and ADAPTER in a Modelfile", { timeout: 120_000 }, () => {
  let server: TestServer;
  let url: string;
  before(async () => {
    server = await startTestServer({}, { ensureDemo: false });
    url = server.url;
    await createTinyModel(url, "base", 3);
  });
  after(() => server.stop());

  it("answers 400 naming the adapters, and creates nothing", async () => {
    for (const stream of [false, true]) {
      const r = await postJson(`${url}/api/create`, {
        model: "with-lora",
        from: "base",
        adapters: { "lora.gguf": DIGEST },
        stream,
      });
      assert.equal(r.status, 400, r.text);
      assert.match(
        String((r.body as Json).error),
        /^LoRA adapters are not supported by this server \(adapters given: lora\.gguf\)/,
      );
    }
    const show = await postJson(`${url}/api/show`, { model: "with-lora" });
    assert.equal(show.status, 404);
  });

  it("accepts an empty adapters object and refuses a malformed one", async () => {
    const ok = await postJson(`${url}/api/create`, {
      model: "no-lora",
      from: "base",
      adapters: {},
      stream: false,
    });
    assert.equal(ok.status, 200, ok.text);
    const bad = await postJson(`${url}/api/create`, {
      model: "bad-lora",
      from: "base",
      adapters: ["lora.gguf"],
      stream: false,
    });
    assert.equal(bad.status, 400);
  });

  it("the CLI refuses a Modelfile with ADAPTER, creating nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "llmsrv-adapter-"));
    try {
      const file = join(dir, "Modelfile");
      await writeFile(file, "FROM base\nADAPTER ./lora.gguf\n");
      const errors: string[] = [];
      const code = await main(["create", "cli-lora", "-f", file], {
        env: { LLMSRV_HOST: `127.0.0.1:${server.port}` },
        stdout: { write: () => true },
        stderr: { write: (t: string) => errors.push(t) },
        stdin: Readable.from([""]),
        signal: new AbortController().signal,
      });
      assert.notEqual(code, 0);
      assert.match(errors.join(""), /ADAPTER is not supported/);
      assert.equal((await postJson(`${url}/api/show`, { model: "cli-lora" })).status, 404);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
