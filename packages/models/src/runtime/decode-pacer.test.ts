// DecodePacer: paced sequences pass their tokens through and ask for the next ones together.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { DecodePacer } from "./decode-pacer.js";

/**
 * A stand-in sequence whose evaluate yields `tokens` (failing after `failAfter` of them), the
 * first after one turn of the event loop (the prompt), the others after `hops` turns, and logs
 * each request for a token ("name:n") and each end ("name:end").
 */
function fakeSequence(
  name: string,
  tokens: number[],
  log: string[],
  failAfter = Infinity,
  hops = 1,
) {
  const sequence = {
    async *evaluate(): AsyncGenerator<Token, void, undefined | Token | Token[]> {
      try {
        for (const [i, token] of tokens.entries()) {
          if (i >= failAfter) throw new Error(`${name} failed`);
          log.push(`${name}:${i}`);
          // Macrotasks, as a native decode takes; sequences of different speeds.
          for (let h = 0; h < (i === 0 ? 1 : hops); h++) await new Promise((r) => setImmediate(r));
          yield token as Token;
        }
      } finally {
        log.push(`${name}:end`);
      }
    },
  };
  return sequence as unknown as LlamaContextSequence;
}

/** Consumes a sequence's evaluate generator as LlamaCompletion does; `stopAt` breaks early. */
async function consume(sequence: LlamaContextSequence, stopAt = Infinity): Promise<number[]> {
  const out: number[] = [];
  for await (const token of sequence.evaluate([1 as Token])) {
    out.push(token);
    if (out.length >= stopAt) break;
  }
  return out;
}

/** Counts turns of the event loop while `run` runs; returns its result and a turn reader. */
async function withTurns<T>(run: (turn: () => number) => Promise<T>): Promise<T> {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return await run(() => turn);
  } finally {
    running = false;
  }
}

/**
 * From the first turn in which every sequence asked for its next token on, each turn in which
 * any sequence asks has every sequence that still has tokens to ask for ask: one batch each.
 */
function assertBatched(requests: Array<{ name: string; turn: number }>, count: number): void {
  const turns = [...new Set(requests.map((r) => r.turn))].sort((a, b) => a - b);
  const namesAt = (t: number) => new Set(requests.filter((r) => r.turn === t).map((r) => r.name));
  const first = turns.findIndex((t) => namesAt(t).size === count);
  assert.ok(first >= 0, "the sequences never asked in one turn");
  for (const t of turns.slice(first)) {
    const stillAsking = new Set(requests.filter((r) => r.turn >= t).map((r) => r.name));
    assert.deepEqual(namesAt(t), stillAsking, `turn ${t}: ${JSON.stringify(requests)}`);
  }
}

describe("DecodePacer", () => {
  it("passes every token through unchanged", async () => {
    const pacer = new DecodePacer();
    const log: string[] = [];
    const seq = pacer.pace(fakeSequence("a", [5, 6, 7], log), 0);
    assert.deepEqual(await consume(seq), [5, 6, 7]);
    assert.equal(log.at(-1), "a:end");
  });

  it("has generating sequences ask for their next tokens together", async () => {
    const pacer = new DecodePacer();
    const requests: Array<{ name: string; turn: number }> = [];
    const names = ["a", "b", "c", "d"];
    const results = await withTurns((turn) => {
      // Each logged request notes its turn; the sequences take 1 to 4 turns per token.
      const log = {
        push: (entry: string) => {
          // Generated tokens only: the first token follows the prompt, which is not paced.
          const [name = "", index] = entry.split(":");
          if (index !== "end" && index !== "0") requests.push({ name, turn: turn() });
        },
      };
      return Promise.all(
        names.map((n, k) => {
          const seq = fakeSequence(
            n,
            [k, k + 10, k + 20, k + 30],
            log as string[],
            Infinity,
            k + 1,
          );
          return consume(pacer.pace(seq, k));
        }),
      );
    });
    assert.deepEqual(results, [
      [0, 10, 20, 30],
      [1, 11, 21, 31],
      [2, 12, 22, 32],
      [3, 13, 23, 33],
    ]);
    assertBatched(requests, names.length);
  });

  it("has them ask in ascending sequence id, whatever order their tokens came back in", async () => {
    const pacer = new DecodePacer();
    const requests: string[] = [];
    const log = {
      push: (entry: string) => {
        const [name = "", index] = entry.split(":");
        if (index !== "end" && index !== "0") requests.push(`${name}:${index}`);
      },
    };
    // The sequence with the highest id is the fastest: it comes back first every time.
    const names = ["a", "b", "c", "d"];
    await Promise.all(
      names.map((n, k) =>
        consume(pacer.pace(fakeSequence(n, [1, 2, 3, 4], log as string[], Infinity, 4 - k), k)),
      ),
    );
    const byIndex = (i: number) => requests.filter((r) => r.endsWith(`:${i}`));
    // From the second generated token on (the first follows the unpaced prompt), in id order.
    for (const i of [2, 3])
      assert.deepEqual(
        byIndex(i),
        names.map((n) => `${n}:${i}`),
      );
  });

  it("releases the others when a sequence stops early or fails", async () => {
    const pacer = new DecodePacer();
    const log: string[] = [];
    const long = [1, 2, 3, 4, 5, 6];
    const [a, b, c] = await Promise.allSettled([
      consume(pacer.pace(fakeSequence("a", long, log), 0)),
      consume(pacer.pace(fakeSequence("b", long, log), 1), 2),
      consume(pacer.pace(fakeSequence("c", long, log, 3), 2)),
    ]);
    assert.deepEqual(a, { status: "fulfilled", value: long });
    assert.deepEqual(b, { status: "fulfilled", value: [1, 2] });
    assert.equal(c.status, "rejected");
    assert.ok(log.includes("b:end") && log.includes("c:end"));
  });

  it("does not hold a sequence while another evaluates its prompt", async () => {
    const pacer = new DecodePacer();
    const log: string[] = [];
    const running = consume(pacer.pace(fakeSequence("a", [1, 2, 3, 4], log), 0));
    // b's generator is created but its prompt never evaluated: a must not wait for it.
    const idle = pacer.pace(fakeSequence("b", [9], log), 1).evaluate([1 as Token]);
    assert.deepEqual(await running, [1, 2, 3, 4]);
    await idle.return(undefined);
  });
});
