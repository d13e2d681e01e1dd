// The slot stepper: one native step for all generating slots, and none waiting on a slot that left.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SlotStepper, type StepModel } from "./slot-stepper.js";

/** A model whose step returns feed + 1 for each slot (slot 9's sampler fails), recording each call. */
class CountingModel implements StepModel {
  readonly calls: Array<{ sequences: number[]; feeds: number[] }> = [];
  failNext: Error | undefined;

  async step(sequences: Int32Array, feeds: Int32Array) {
    this.calls.push({ sequences: [...sequences], feeds: [...feeds] });
    await new Promise((r) => setImmediate(r));
    if (this.failNext) {
      const e = this.failNext;
      this.failNext = undefined;
      throw e;
    }
    const seqs = [...sequences];
    return {
      tokens: Int32Array.from(seqs, (s, i) => (s === 9 ? -1 : (feeds[i] ?? 0) + 1)),
      errors: seqs.map((s) => (s === 9 ? "the sampler selected no token" : null)),
    };
  }
}

const never = new AbortController().signal;

function collect(into: number[]): (token: number) => boolean {
  return (token) => {
    into.push(token);
    return false;
  };
}

describe("slot stepper", () => {
  it("decodes the slots generating at once in one step per token", async () => {
    const model = new CountingModel();
    const stepper = new SlotStepper(model);
    const got: number[][] = [[], [], []];
    // As when they are all generating already (generate() joins too, so the first would
    // otherwise take its first step alone while the others start).
    for (const slot of [0, 1, 2]) stepper.join(slot);
    // Asked for in descending order: each step still lists the slots ascending (one pass).
    const reasons = await Promise.all(
      [2, 1, 0].map((slot) =>
        stepper.generate(slot, {
          maxTokens: 5,
          isEnd: () => false,
          take: collect(got[slot] ?? []),
          signal: never,
        }),
      ),
    );
    assert.deepEqual(reasons, ["length", "length", "length"]);
    assert.deepEqual(
      model.calls.map((c) => c.sequences),
      Array.from({ length: 5 }, () => [0, 1, 2]),
    );
    // -1 asks for the prompt's token (0 here), then each step feeds the last token back.
    for (const tokens of got) assert.deepEqual(tokens, [0, 1, 2, 3, 4]);
  });

  it("stops waiting for a slot once it has left", async () => {
    const model = new CountingModel();
    const stepper = new SlotStepper(model);
    const short: number[] = [];
    const long: number[] = [];
    stepper.join(0);
    stepper.join(1);
    const [a, b] = await Promise.all([
      stepper.generate(0, {
        maxTokens: 2,
        isEnd: () => false,
        take: collect(short),
        signal: never,
      }),
      stepper.generate(1, { maxTokens: 6, isEnd: () => false, take: collect(long), signal: never }),
    ]);
    assert.equal(a, "length");
    assert.equal(b, "length");
    assert.deepEqual(long, [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(
      model.calls.map((c) => c.sequences.length),
      [2, 2, 1, 1, 1, 1],
    );
  });

  it("ends a slot at its end token, its stop, or its signal, leaving the others going", async () => {
    const model = new CountingModel();
    const stepper = new SlotStepper(model);
    const canceled = new AbortController();
    const seen: number[][] = [[], [], [], []];
    const results = Promise.all([
      stepper.generate(0, {
        maxTokens: 10,
        isEnd: (t) => t === 2,
        take: collect(seen[0] ?? []),
        signal: never,
      }),
      stepper.generate(1, {
        maxTokens: 10,
        isEnd: () => false,
        take: (t) => {
          seen[1]?.push(t);
          return t === 3;
        },
        signal: never,
      }),
      stepper.generate(2, {
        maxTokens: 10,
        isEnd: () => false,
        take: (t) => {
          seen[2]?.push(t);
          if (t === 1) canceled.abort();
          return false;
        },
        signal: canceled.signal,
      }),
      stepper.generate(3, {
        maxTokens: 6,
        isEnd: () => false,
        take: collect(seen[3] ?? []),
        signal: never,
      }),
    ]);
    assert.deepEqual(await results, ["stop", "stop", "stop", "length"]);
    assert.deepEqual(seen, [
      [0, 1],
      [0, 1, 2, 3],
      [0, 1],
      [0, 1, 2, 3, 4, 5],
    ]);
  });

  it("fails only the slot whose sampler failed", async () => {
    const model = new CountingModel();
    const stepper = new SlotStepper(model);
    const ok: number[] = [];
    const [good, bad] = await Promise.allSettled([
      stepper.generate(0, { maxTokens: 3, isEnd: () => false, take: collect(ok), signal: never }),
      stepper.generate(9, { maxTokens: 3, isEnd: () => false, take: () => false, signal: never }),
    ]);
    assert.equal(good.status, "fulfilled");
    assert.deepEqual(ok, [0, 1, 2]);
    assert.equal(bad.status, "rejected");
    assert.match(String((bad as PromiseRejectedResult).reason), /sampler selected no token/);
  });

  it("fails every slot of a step whose decode failed, and steps again after", async () => {
    const model = new CountingModel();
    const stepper = new SlotStepper(model);
    model.failNext = new Error("llama_decode failed (1)");
    stepper.join(0);
    stepper.join(1);
    const failed = await Promise.allSettled(
      [0, 1].map((slot) =>
        stepper.generate(slot, {
          maxTokens: 3,
          isEnd: () => false,
          take: () => false,
          signal: never,
        }),
      ),
    );
    assert.deepEqual(
      failed.map((r) => r.status),
      ["rejected", "rejected"],
    );
    const after: number[] = [];
    await stepper.generate(0, {
      maxTokens: 2,
      isEnd: () => false,
      take: collect(after),
      signal: never,
    });
    assert.deepEqual(after, [0, 1]);
  });

  it("takes a slot that starts while a step runs into the next step", async () => {
    const model = new CountingModel();
    const stepper = new SlotStepper(model);
    const first = stepper.generate(0, {
      maxTokens: 3,
      isEnd: () => false,
      take: () => false,
      signal: never,
    });
    const second = stepper.generate(1, {
      maxTokens: 3,
      isEnd: () => false,
      take: () => false,
      signal: never,
    });
    await Promise.all([first, second]);
    assert.deepEqual(
      model.calls.map((c) => c.sequences),
      [[0], [0, 1], [0, 1], [1]],
    );
  });

  it("refuses a token for a slot that has not joined", async () => {
    const stepper = new SlotStepper(new CountingModel());
    await assert.rejects(stepper.next(3, -1), /slot 3 asked for a token unjoined/);
  });
});
