import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import {
  baseModel,
  type CraftedGguf,
  encodeCrafted,
  gguf,
  rawArray,
  rawValue,
  withMeta,
  withoutMeta,
  withTensor,
} from "./crafted-gguf.js";
import {
  postJson,
  STORIES_PATH,
  startTestServer,
  storiesSkip,
  type TestServer,
} from "./harness.js";

/** One broken file: how to make it, and what the refusal must say. */
interface BrokenCase {
  name: string;
  bytes: () => Buffer;
  reason: RegExp;
}

const base = baseModel();
const layout = encodeCrafted(base);
const valid = layout.bytes;
const craft = (g: CraftedGguf) => () => encodeCrafted(g).bytes;
const cut = (n: number) => () => valid.subarray(0, n);
/** The valid file with `patch` written at `at`. */
const patched = (at: number, patch: Buffer) => () => {
  const b = Buffer.from(valid);
  patch.copy(b, at);
  return b;
};
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return b;
};
const second = base.tensors[1]?.name ?? "";

const TRUNCATED =
  /ends inside its header|ends before its tensor data|past the end of the file|longer than the rest of the file/;

const CASES: BrokenCase[] = [
  // truncation at each section
  { name: "empty file", bytes: cut(0), reason: /shorter than a GGUF header/ },
  { name: "cut inside the magic", bytes: cut(3), reason: /shorter than a GGUF header/ },
  { name: "cut inside the counts", bytes: cut(20), reason: TRUNCATED },
  { name: "cut inside the metadata", bytes: cut(layout.tensorInfoStart - 50), reason: TRUNCATED },
  {
    name: "cut inside the tensor descriptors",
    bytes: cut(layout.tensorInfoStart + 30),
    reason: TRUNCATED,
  },
  { name: "cut inside the header padding", bytes: cut(layout.dataStart - 1), reason: TRUNCATED },
  { name: "cut in the middle of the data", bytes: cut(layout.dataStart + 1000), reason: TRUNCATED },
  { name: "last byte missing", bytes: cut(valid.length - 1), reason: TRUNCATED },
  // header fields
  { name: "bad magic", bytes: craft({ ...base, magic: 0x4c4d4747 }), reason: /magic bytes/ },
  {
    name: "version 1",
    bytes: craft({ ...base, version: 1 }),
    reason: /unsupported GGUF version 1/,
  },
  {
    name: "version 4",
    bytes: craft({ ...base, version: 4 }),
    reason: /unsupported GGUF version 4/,
  },
  // absurd counts and lengths
  {
    name: "huge tensor count",
    bytes: craft({ ...base, tensorCount: 1n << 40n }),
    reason: /tensor count \d+ is larger than the file/,
  },
  {
    name: "huge metadata count",
    bytes: craft({ ...base, kvCount: 1n << 40n }),
    reason: /metadata count \d+ is larger than the file/,
  },
  {
    name: "tensor count beyond 2^53",
    bytes: craft({ ...base, tensorCount: (1n << 64n) - 1n }),
    reason: /out of range/,
  },
  {
    name: "key length longer than the file",
    bytes: patched(24, u64(1n << 40n)),
    reason: /string of \d+ bytes is longer than the rest of the file/,
  },
  {
    name: "string value longer than the file",
    bytes: craft(withMeta(base, "general.name", rawValue(8, u64(1n << 33n)))),
    reason: /string of \d+ bytes is longer/,
  },
  {
    name: "array longer than the file",
    bytes: craft(withMeta(base, "x.array", rawArray(4, 1n << 36n))),
    reason: /array of \d+ elements is longer/,
  },
  // bad type ids
  {
    name: "unknown metadata value type",
    bytes: craft(withMeta(base, "x.bad", rawValue(99, u64(0n)))),
    reason: /unknown value type 99/,
  },
  {
    name: "array of unknown element type",
    bytes: craft(withMeta(base, "x.bad", rawArray(77, 1n))),
    reason: /unknown value type 77/,
  },
  {
    name: "nested array",
    bytes: craft(withMeta(base, "x.bad", rawArray(9, 1n))),
    reason: /nested arrays/,
  },
  {
    name: "unknown tensor type",
    bytes: craft(withTensor(base, second, { type: 99 })),
    reason: /has unknown type 99/,
  },
  {
    name: "removed tensor type Q4_2",
    bytes: craft(withTensor(base, second, { type: 4 })),
    reason: /has unknown type 4/,
  },
  {
    name: "dimension not a multiple of the block size",
    bytes: craft(withTensor(base, "output_norm.weight", { type: 2, dims: [48] })),
    reason: /not a multiple of the type's block size 32/,
  },
  {
    name: "five dimensions",
    bytes: craft(withTensor(base, second, { dims: [64, 1, 1, 1, 1] })),
    reason: /has 5 dimensions/,
  },
  {
    name: "element count beyond any file",
    bytes: craft(withTensor(base, second, { dims: [1 << 30, 1 << 30, 1 << 30] })),
    reason: /more elements than any file can hold/,
  },
  // offsets
  {
    name: "misaligned offset",
    bytes: craft(withTensor(base, second, { offset: 33 })),
    reason: /not aligned to 32 bytes/,
  },
  {
    name: "offset past the end of the file",
    bytes: craft(withTensor(base, second, { offset: 2 ** 40 })),
    reason: /past the end of the file/,
  },
  {
    name: "overlapping tensors",
    bytes: craft(withTensor(base, "output_norm.weight", { offset: 0 })),
    reason: /overlap/,
  },
  {
    name: "duplicate tensor name",
    bytes: craft(withTensor(base, "output_norm.weight", { name: "token_embd.weight" })),
    reason: /appears twice/,
  },
  {
    name: "tensor name too long",
    bytes: craft(withTensor(base, "output_norm.weight", { name: "n".repeat(100) })),
    reason: /longer than 63 bytes/,
  },
  {
    name: "alignment not a power of two",
    bytes: craft(withMeta(base, "general.alignment", gguf.u32(48))),
    reason: /general.alignment 48 is not a power of two/,
  },
  {
    name: "alignment zero",
    bytes: craft(withMeta(base, "general.alignment", gguf.u32(0))),
    reason: /general.alignment 0/,
  },
  // metadata inconsistent with the tensors
  {
    name: "block_count 1000",
    bytes: craft(withMeta(base, "llama.block_count", gguf.u32(1000))),
    reason: /llama.block_count is 1000/,
  },
  {
    name: "block_count 2 with one block",
    bytes: craft(withMeta(base, "llama.block_count", gguf.u32(2))),
    reason: /llama.block_count is 2 but the file has tensors for 1 blocks/,
  },
  {
    name: "block_count 0",
    bytes: craft(withMeta(base, "llama.block_count", gguf.u32(0))),
    reason: /llama.block_count must be > 0/,
  },
  {
    name: "block_count a string",
    bytes: craft(withMeta(base, "llama.block_count", gguf.str("1"))),
    reason: /llama.block_count must be a number/,
  },
  {
    name: "a block beyond block_count",
    bytes: craft(withTensor(base, "blk.0.ffn_up.weight", { name: "blk.5.ffn_up.weight" })),
    reason: /llama.block_count is 1 but the file has tensors for 2 blocks \(highest blk.5\)/,
  },
  {
    name: "head_count 0",
    bytes: craft(withMeta(base, "llama.attention.head_count", gguf.u32(0))),
    reason: /llama.attention.head_count must be > 0, got 0/,
  },
  {
    name: "head_count_kv 0",
    bytes: craft(withMeta(base, "llama.attention.head_count_kv", gguf.u32(0))),
    reason: /head_count_kv must be > 0/,
  },
  {
    name: "head_count_kv not dividing head_count",
    bytes: craft(withMeta(base, "llama.attention.head_count_kv", gguf.u32(3))),
    reason: /head_count_kv 3 does not divide/,
  },
  {
    name: "embedding_length not divisible by head_count",
    bytes: craft(withMeta(base, "llama.attention.head_count", gguf.u32(6))),
    reason: /embedding_length 64 is not divisible by llama.attention.head_count 6/,
  },
  {
    name: "context_length 0",
    bytes: craft(withMeta(base, "llama.context_length", gguf.u32(0))),
    reason: /llama.context_length must be > 0/,
  },
  {
    name: "embedding_length contradicting token_embd",
    bytes: craft(withMeta(base, "llama.embedding_length", gguf.u32(128))),
    reason: /tensor token_embd.weight has shape \[64, 260\], expected \[128, 260\]/,
  },
  {
    name: "feed_forward_length contradicting ffn tensors",
    bytes: craft(withMeta(base, "llama.feed_forward_length", gguf.u32(999))),
    reason: /tensor blk.0.ffn_gate.weight has shape/,
  },
  {
    name: "attn_k transposed",
    bytes: craft(withTensor(base, "blk.0.attn_k.weight", { dims: [32, 64] })),
    reason: /blk.0.attn_k.weight has shape \[32, 64\], expected \[64, 32\]/,
  },
  {
    name: "rope dimension larger than a head",
    bytes: craft(withMeta(base, "llama.rope.dimension_count", gguf.u32(999))),
    reason: /rope.dimension_count 999 exceeds the head size 16/,
  },
  {
    name: "vocab_size contradicting token_embd",
    bytes: craft(withMeta(base, "llama.vocab_size", gguf.u32(1000))),
    reason: /token_embd.weight has 260 rows but the vocabulary has 1000 tokens/,
  },
  {
    name: "fewer scores than tokens",
    bytes: craft(withMeta(base, "tokenizer.ggml.scores", gguf.f32s([0, 0, 0]))),
    reason: /tokenizer.ggml.scores has 3 entries but tokenizer.ggml.tokens has 260/,
  },
  {
    name: "tokens not strings",
    bytes: craft(withMeta(base, "tokenizer.ggml.tokens", gguf.i32s([1, 2]))),
    reason: /tokenizer.ggml.tokens must be an array of strings/,
  },
  {
    name: "no architecture",
    bytes: craft(withoutMeta(base, "general.architecture")),
    reason: /general.architecture is missing/,
  },
  {
    name: "no token embedding",
    bytes: craft(withTensor(base, "token_embd.weight", { name: "tok.weight" })),
    reason: /token_embd.weight is missing/,
  },
];

function sha(bytes: Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

async function uploadAndCreate(url: string, model: string, bytes: Buffer) {
  const digest = sha(bytes);
  const up = await fetch(`${url}/api/blobs/${digest}`, { method: "POST", body: bytes });
  assert.ok(up.status === 201 || up.status === 200, `upload of ${model}: ${up.status}`);
  return postJson(`${url}/api/create`, { model, files: { "m.gguf": digest }, stream: false });
}

describe("crafted GGUF files at /api/create", { timeout: 300_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it(`the base file all ${CASES.length} cases derive from is accepted`, async () => {
    const r = await uploadAndCreate(server.url, "crafted-base", valid);
    assert.equal(r.status, 200, r.text);
  });

  it("the shared stories260K model is accepted", { skip: storiesSkip() }, async () => {
    const r = await uploadAndCreate(server.url, "stories-crafted", await readFile(STORIES_PATH));
    assert.equal(r.status, 200, r.text);
  });

  for (const [i, c] of CASES.entries()) {
    it(`refuses ${c.name} with 400 and the reason`, async () => {
      const r = await uploadAndCreate(server.url, `broken-${i}`, c.bytes());
      assert.equal(r.status, 400, `${c.name}: ${r.text}`);
      assert.match((r.body as { error: string }).error, c.reason);
    });
  }

  it("is still serving afterwards, with none of the broken models stored", async () => {
    const version = await fetch(`${server.url}/api/version`);
    assert.equal(version.status, 200);
    const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as {
      models: Array<{ name: string }>;
    };
    assert.deepEqual(
      tags.models.filter((m) => m.name.startsWith("broken-")),
      [],
    );
    const gen = await postJson(`${server.url}/api/generate`, {
      model: "crafted-base",
      prompt: "hi",
      stream: false,
      options: { num_predict: 2 },
    });
    assert.equal(gen.status, 200, gen.text);
  });
});
