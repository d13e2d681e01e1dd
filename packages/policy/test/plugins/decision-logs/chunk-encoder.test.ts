/** Chunks are gzip JSON arrays within the compressed limit, holding every event in order. */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { ChunkEncoder } from "../../../src/plugins/decision-logs/chunk-encoder.js";
import { EventBuffer, SizeBuffer } from "../../../src/plugins/decision-logs/upload-buffer.js";

/** An event whose payload barely compresses, so sizes are predictable. */
function noisyEvent(n: number, bytes: number): string {
  return JSON.stringify({ n, noise: randomBytes(bytes / 2).toString("hex") });
}

function decode(chunks: Buffer[]): { n: number }[][] {
  return chunks.map((c) => JSON.parse(gunzipSync(c).toString("utf8")));
}

const noCounters = { dropped() {}, encodingFailure() {} };

describe("ChunkEncoder", () => {
  it("keeps every chunk within the limit and every event in order", () => {
    const limit = 2000;
    const enc = new ChunkEncoder(limit, () => assert.fail("nothing is too large"));
    const chunks: Buffer[] = [];
    for (let n = 0; n < 200; n++) chunks.push(...enc.write(noisyEvent(n, 150)));
    chunks.push(...enc.flush());
    assert.ok(chunks.length > 5, `several chunks expected, got ${chunks.length}`);
    for (const c of chunks) assert.ok(c.length <= limit, `chunk of ${c.length} bytes`);
    const events = decode(chunks).flat();
    assert.deepEqual(
      events.map((e) => e.n),
      Array.from({ length: 200 }, (_, i) => i),
    );
  });

  it("fills chunks with many events when they compress well", () => {
    const enc = new ChunkEncoder(1000, () => assert.fail("nothing is too large"));
    const chunks: Buffer[] = [];
    const event = JSON.stringify({ path: "x/y", input: { user: "alice", role: "admin" } });
    for (let n = 0; n < 2000; n++) chunks.push(...enc.write(event));
    chunks.push(...enc.flush());
    const sizes = decode(chunks).map((events) => events.length);
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      2000,
    );
    for (const c of chunks) assert.ok(c.length <= 1000);
    // Compressible events: the adaptive target grows past the compressed limit.
    assert.ok(Math.max(...sizes) * event.length > 1000, `largest chunk: ${Math.max(...sizes)}`);
  });

  it("drops an event larger than the limit by itself and keeps the others", () => {
    const dropped: number[] = [];
    const enc = new ChunkEncoder(500, (bytes) => dropped.push(bytes));
    const chunks = [
      ...enc.write(noisyEvent(1, 20)),
      ...enc.write(noisyEvent(2, 4000)),
      ...enc.write(noisyEvent(3, 20)),
      ...enc.flush(),
    ];
    assert.deepEqual(
      decode(chunks)
        .flat()
        .map((e) => e.n),
      [1, 3],
    );
    assert.equal(dropped.length, 1);
    assert.ok((dropped[0] as number) > 4000);
  });
});

describe("upload buffers", () => {
  it("size buffer: drops the oldest chunks past buffer_size_limit_bytes", () => {
    let droppedChunks = 0;
    const buffer = new SizeBuffer(300, 700, {
      dropped: (n) => {
        droppedChunks += n;
      },
      encodingFailure: () => assert.fail("nothing is too large"),
    });
    for (let n = 0; n < 40; n++) buffer.push(noisyEvent(n, 120));
    const chunks = buffer.drain();
    const total = chunks.reduce((a, c) => a + c.length, 0);
    assert.ok(total <= 700, `held ${total} bytes`);
    assert.ok(droppedChunks > 0);
    const kept = decode(chunks)
      .flat()
      .map((e) => e.n);
    // What is left is the newest events, in order.
    assert.equal(kept.at(-1), 39);
    assert.deepEqual(
      kept,
      [...kept].sort((a, b) => a - b),
    );
    assert.ok((kept[0] as number) > 0);
    assert.deepEqual(buffer.drain(), []);
  });

  it("event buffer: holds at most buffer_size_limit_events, dropping the oldest", () => {
    let dropped = 0;
    const buffer = new EventBuffer(32_768, 5, {
      ...noCounters,
      dropped: (n) => {
        dropped += n;
      },
    });
    for (let n = 0; n < 8; n++) buffer.push(JSON.stringify({ n }));
    assert.equal(dropped, 3);
    assert.deepEqual(
      decode(buffer.drain())
        .flat()
        .map((e) => e.n),
      [3, 4, 5, 6, 7],
    );
  });

  it("event buffer: a requeued chunk comes back before newer events", () => {
    const buffer = new EventBuffer(32_768, 10, noCounters);
    buffer.push(JSON.stringify({ n: 1 }));
    const [chunk] = buffer.drain();
    buffer.requeue(chunk as Buffer);
    buffer.push(JSON.stringify({ n: 2 }));
    assert.deepEqual(
      decode(buffer.drain())
        .flat()
        .map((e) => e.n),
      [1, 2],
    );
  });
});
