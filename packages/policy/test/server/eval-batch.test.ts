/**
 * The batch format between the server and its evaluation workers (eval-batch.ts): jobs and
 * answers come back as they went, a decision path is sent once per worker, and a batch in
 * which one job fails or runs out of time still answers every other job with its own answer.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildEngine } from "../../src/loader/build-engine.js";
import {
  type AnswerRecord,
  errorRecord,
  JobDecoder,
  JobEncoder,
  type JobRecord,
  readAnswer,
  resultRecord,
} from "../../src/server/eval-batch.js";
import {
  type DataJob,
  type EvalJob,
  JobFailure,
  type JobResult,
} from "../../src/server/eval-job.js";
import { EvalPool } from "../../src/server/eval-pool.js";
import { engineState } from "../../src/server/eval-pool-setup.js";
import { policyDir } from "./policy-dir.js";
import { type Harness, startHarness } from "./server-harness.js";

const PLAIN = { timed: false, instrument: false, prettyExplain: false };

/** A data POST of the common kind (the short form). */
function dataJob(path: string[], body: string, extra: Partial<DataJob> = {}): DataJob {
  return {
    kind: "data",
    path,
    body,
    yaml: false,
    wantInput: false,
    limits: { maxInputDepth: 100, strict: false },
    insight: PLAIN,
    ...extra,
  };
}

/** Encodes and decodes jobs as one batch. */
function roundTrip(encoder: JobEncoder, decoder: JobDecoder, jobs: EvalJob[]) {
  const text = encoder.encode(jobs.map((job, i) => ({ id: i + 1, job })));
  return { text, decoded: decoder.decode(text) };
}

describe("job batches", () => {
  it("bring every job back as it was sent", () => {
    const path = ["a", "b"];
    const jobs: EvalJob[] = [
      dataJob(path, '{"input": 1}'),
      dataJob(path, "a: 1", {
        yaml: true,
        limits: { timeoutMs: 50, maxCollectionSize: 10, maxInputDepth: 3, strict: true },
      }),
      // Forms that carry more than the short form holds go as they are.
      dataJob(path, "{}", { wantInput: true }),
      dataJob(path, "{}", { insight: { ...PLAIN, timed: true } }),
      dataJob(path, "{}", { insight: { ...PLAIN, explain: "full" } }),
      { ...dataJob(path, ""), body: undefined, inputParam: "{}" },
      { kind: "health", path: ["x"] },
    ];
    const { decoded } = roundTrip(new JobEncoder(), new JobDecoder(), jobs);
    assert.deepEqual(
      decoded.map((d) => d.id),
      jobs.map((_, i) => i + 1),
    );
    // Compared as JSON: a key whose value is undefined may be left out on the way.
    assert.deepEqual(
      JSON.parse(JSON.stringify(decoded.map((d) => d.job))),
      JSON.parse(JSON.stringify(jobs)),
    );
    assert.deepEqual((decoded[0]?.job as DataJob | undefined)?.limits, {
      timeoutMs: undefined,
      maxCollectionSize: undefined,
      maxInputDepth: 100,
      strict: false,
    });
  });

  it("send a decision path once per worker and decode it to one array", () => {
    const encoder = new JobEncoder();
    const decoder = new JobDecoder();
    const path = ["limits"];
    const first = roundTrip(encoder, decoder, [dataJob(path, "{}"), dataJob(path, "{}")]);
    const records = JSON.parse(first.text) as JobRecord[];
    assert.deepEqual(records[0]?.[8], ["limits"]);
    assert.equal(records[1]?.[8], undefined, "the second use names the path by number");
    const second = roundTrip(encoder, decoder, [dataJob(path, "{}")]);
    assert.equal((JSON.parse(second.text) as JobRecord[])[0]?.[8], undefined);
    const decodedPaths = [...first.decoded, ...second.decoded].map((d) => (d.job as DataJob).path);
    assert.ok(decodedPaths.every((p) => p === decodedPaths[0]));
    // A new worker (a new encoder and decoder) is told the path again.
    const fresh = roundTrip(new JobEncoder(), new JobDecoder(), [dataJob(path, "{}")]);
    assert.deepEqual((fresh.decoded[0]?.job as DataJob | undefined)?.path, ["limits"]);
  });

  it("keep decoding the right paths after the numbering starts over", () => {
    const encoder = new JobEncoder();
    const decoder = new JobDecoder();
    const paths = Array.from({ length: 2500 }, (_, i) => ["p", String(i)]);
    for (let from = 0; from < paths.length; from += 100) {
      // Old paths come back between new ones, before and after the numbering starts over.
      const batch = paths.slice(from, from + 100).map((p) => dataJob(p, "{}"));
      batch.push(dataJob(paths[from % 7] as string[], "{}"));
      const { decoded } = roundTrip(encoder, decoder, batch);
      assert.deepEqual(
        decoded.map((d) => (d.job as DataJob).path),
        batch.map((j) => (j as DataJob).path),
      );
    }
  });

  it("read answers back as they were written", () => {
    const results: JobResult[] = [
      { resultText: '{"allow":true}' },
      {},
      { missingInputKey: true },
      { resultText: "1", missingInputKey: true },
      { resultText: "1", metrics: { timer_rego_query_eval_ns: 5 }, input: "{}" },
      { explanation: ["Enter data.x"] },
    ];
    const records: AnswerRecord[] = results.map((r, i) => resultRecord(i, r));
    records.push(errorRecord(99, { type: "other", message: "no policies loaded" }));
    const back = (JSON.parse(JSON.stringify(records)) as AnswerRecord[]).map(readAnswer);
    assert.deepEqual(
      back.slice(0, -1).map((a) => a.result),
      results,
    );
    assert.deepEqual(back.at(-1), {
      id: 99,
      error: { type: "other", message: "no policies loaded" },
    });
  });
});

const POLICY = `package b

import rego.v1

echo := input.x

twice := input.x * 2

forever if {
  some i in numbers.range(1, 100000)
  some j in numbers.range(1, 100000)
  i * j == -1
}
`;

/** How a job ended. */
interface Settled {
  result?: JobResult;
  error?: Error & { code?: string };
}

describe("a batch in which one job fails", () => {
  const files = policyDir({ "b.rego": POLICY });
  let pool: EvalPool;
  before(async () => {
    const { engine } = buildEngine([files.dir]);
    pool = new EvalPool({
      size: 1,
      state: () => engineState(engine),
      mainThread: () => engine,
      evalTimeoutMs: 0,
    });
    await pool.started();
  });
  after(async () => {
    await pool.close();
    files.remove();
  });

  it("answers each job with its own answer, errors and time-outs included", {
    timeout: 60_000,
  }, async () => {
    const echo = ["b", "echo"];
    // Asked in one turn of the loop: one worker, one batch.
    const answers = [
      pool.run(dataJob(echo, '{"input": {"x": 1}}')),
      pool.run(dataJob(echo, "{not json")),
      pool.run(
        dataJob(["b", "forever"], "{}", {
          limits: { timeoutMs: 100, maxInputDepth: 100, strict: false },
        }),
      ),
      pool.run(dataJob(["b", "twice"], '{"input": {"x": 21}}')),
      pool.run(dataJob(echo, '{"x": 2}')),
      pool.run(dataJob(["b", "nothing"], '{"input": {}}')),
      pool.run(dataJob(echo, '{"input": {"x": 3}}')),
    ].map((p) =>
      p.then(
        (result): Settled => ({ result }),
        (error: Error & { code?: string }): Settled => ({ error }),
      ),
    );
    const [one, malformed, timedOut, twice, noInputKey, undefinedDoc, three] =
      await Promise.all(answers);
    assert.deepEqual(one, { result: { resultText: "1" } });
    assert.equal(malformed?.error?.code, "invalid_parameter");
    assert.match(malformed?.error?.message ?? "", /^body contains malformed input document: /);
    // A failed evaluation comes with what the decision log records of it.
    assert.ok(timedOut?.error instanceof JobFailure);
    assert.equal((timedOut.error.error as { code?: string }).code, "eval_cancel_error");
    assert.deepEqual(twice, { result: { resultText: "42" } });
    assert.deepEqual(noInputKey, { result: { missingInputKey: true } });
    assert.deepEqual(undefinedDoc, { result: {} });
    assert.deepEqual(three, { result: { resultText: "3" } });
  });

  it("answers through submit's callback", async () => {
    const result = await new Promise<JobResult | undefined>((resolve, reject) => {
      pool.submit(dataJob(["b", "twice"], '{"input": {"x": 4}}'), (error, r) =>
        error ? reject(error) : resolve(r),
      );
    });
    assert.deepEqual(result, { resultText: "8" });
  });
});

describe("concurrent decisions over HTTP on the pool", () => {
  const files = policyDir({ "b.rego": POLICY });
  let h: Harness;
  before(async () => {
    h = await startHarness([files.dir], { workers: 2, evalTimeoutMs: 5000 });
  });
  after(async () => {
    await h.server.close(1000);
    files.remove();
  });

  it("answers every request with its own decision", async () => {
    const asked = Array.from({ length: 60 }, (_, i) =>
      i % 10 === 3
        ? h.post("/v1/data/b/echo", "[1]").then(async (r) => [r.status, await r.json()])
        : h
            .post(`/v1/data/b/${i % 2 ? "echo" : "twice"}`, JSON.stringify({ input: { x: i } }))
            .then(async (r) => [r.status, await r.json()]),
    );
    const answers = await Promise.all(asked);
    answers.forEach(([status, body], i) => {
      if (i % 10 === 3) {
        assert.equal(status, 400);
        assert.equal((body as { code: string }).code, "invalid_parameter");
      } else {
        assert.equal(status, 200);
        assert.deepEqual(body, { result: i % 2 ? i : 2 * i });
      }
    });
  });
});
