import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { loadConfig } from "../src/config.js";
import { baseModel, encodeCrafted, gguf, withMeta } from "./crafted-gguf.js";
import { OLLAMA_TEMPLATES_DIR, postJson, startTestServer, type TestServer } from "./harness.js";

const skip = skipUnlessProvided(
  existsSync(join(OLLAMA_TEMPLATES_DIR, "index.json"))
    ? undefined
    : `Ollama's template index absent at ${OLLAMA_TEMPLATES_DIR}`,
);

interface IndexEntry {
  template: string;
  name: string;
}

function index(): IndexEntry[] {
  return JSON.parse(readFileSync(join(OLLAMA_TEMPLATES_DIR, "index.json"), "utf8")) as IndexEntry[];
}

function gotmpl(name: string): string {
  return readFileSync(join(OLLAMA_TEMPLATES_DIR, `${name}.gotmpl`), "utf8").replaceAll(
    "\r\n",
    "\n",
  );
}

/** Uploads a GGUF (the project's writer) carrying `chatTemplate`; returns its digest. */
async function uploadWithChatTemplate(server: TestServer, chatTemplate: string): Promise<string> {
  const bytes = encodeCrafted(
    withMeta(baseModel(), "tokenizer.chat_template", gguf.str(chatTemplate)),
  ).bytes;
  const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  const r = await fetch(`${server.url}/api/blobs/${digest}`, { method: "POST", body: bytes });
  assert.ok(r.status === 201 || r.status === 200, `upload: ${r.status}`);
  return digest;
}

/** Creates `model` from the blob (streamed), returning the statuses and the shown model. */
async function create(server: TestServer, model: string, digest: string, extra: object = {}) {
  const r = await postJson(`${server.url}/api/create`, {
    model,
    files: { "m.gguf": digest },
    ...extra,
  });
  assert.equal(r.status, 200, r.text);
  const statuses = r.text
    .trim()
    .split("\n")
    .map((l) => (JSON.parse(l) as { status?: string; error?: string }).status ?? l);
  const show = await postJson(`${server.url}/api/show`, { model });
  assert.equal(show.status, 200, show.text);
  return { statuses, show: show.body as { template: string; parameters?: string } };
}

describe("create picks Ollama's template for a GGUF's Jinja chat template", {
  skip,
  timeout: 120_000,
}, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ LLMSRV_TEMPLATES: OLLAMA_TEMPLATES_DIR });
  });
  after(() => server?.stop());

  for (const name of ["llama3-instruct", "gemma-instruct", "mistral-instruct"]) {
    it(`stores ${name}.gotmpl and its stop parameters for a GGUF carrying ${name}'s Jinja template, edited a little`, async () => {
      const entries = index();
      const entry = entries.find((e) => e.name === name) as IndexEntry;
      // A few edits away from the indexed text: still the nearest, and under 100 edits.
      const jinja = entry.template.replace("{%", "{%-").concat("\n");
      const digest = await uploadWithChatTemplate(server, jinja);
      const { statuses, show } = await create(server, `auto-${name}`, digest);
      assert.ok(statuses.includes(`using autodetected template ${name}`), statuses.join(" | "));
      assert.equal(show.template, gotmpl(name));
      const params = JSON.parse(
        readFileSync(join(OLLAMA_TEMPLATES_DIR, `${name}.json`), "utf8"),
      ) as {
        stop?: string[];
      };
      assert.ok((params.stop ?? []).length > 0);
      const shown = (show.parameters ?? "").split("\n").map((l) => l.replace(/\s+/g, " "));
      for (const stop of params.stop ?? [])
        assert.ok(shown.includes(`stop ${JSON.stringify(stop)}`), show.parameters);
    });
  }

  it("keeps the GGUF's own chat template when no indexed one is within 100 edits", async () => {
    const jinja = `{% for m in messages %}${"<custom>".repeat(40)}{{ m.content }}{% endfor %}`;
    const digest = await uploadWithChatTemplate(server, jinja);
    const { statuses, show } = await create(server, "auto-none", digest);
    assert.ok(
      !statuses.some((s) => s.startsWith("using autodetected template")),
      statuses.join(" | "),
    );
    assert.equal(show.template, jinja);
  });

  it("uses the request's template rather than detecting one, and lets request parameters win", async () => {
    const entry = index().find((e) => e.name === "llama3-instruct") as IndexEntry;
    const digest = await uploadWithChatTemplate(server, entry.template);
    const own = await create(server, "auto-own", digest, { template: "{{ .Prompt }}" });
    assert.equal(own.show.template, "{{ .Prompt }}");
    const empty = await create(server, "auto-empty", digest, { template: "" });
    assert.equal(empty.show.template, gotmpl("llama3-instruct"));
    const merged = await create(server, "auto-merged", digest, { parameters: { stop: ["END"] } });
    assert.equal(merged.show.template, gotmpl("llama3-instruct"));
    assert.match(merged.show.parameters ?? "", /END/);
    assert.doesNotMatch(merged.show.parameters ?? "", /eot_id/);
  });

  it("refuses a templates folder without a valid index.json at start-up, naming the variable", () => {
    assert.throws(
      () => loadConfig({ LLMSRV_TEMPLATES: "/nonexistent-folder" }),
      /LLMSRV_TEMPLATES: cannot read template index/,
    );
  });
});
