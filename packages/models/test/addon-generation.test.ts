// Text generation on our addon: node-llama-cpp's text, every generating slot in one decode per token.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { LlamaRuntime } from "../src/runtime/llama-runtime.js";
import type {
  CompletionRequest,
  CompletionResult,
  LoadedModel,
  LoadSpec,
} from "../src/runtime/model-runner.js";
import {
  loadMtmdAddon,
  type MtmdAddon,
  type NativeMtmdModel,
} from "../src/runtime/mtmd/mtmd-addon.js";
import { addonMissing, greedySampling } from "../src/runtime/mtmd/test-support.js";
import { STORIES_PATH, storiesSkip } from "./harness.js";

const PROMPTS = [
  "Once upon a time",
  "The little dog",
  "One day, a girl named Lily",
  "Tom and his mom went to the park",
];
const never = new AbortController().signal;

function spec(sequences: number, threads = 1): LoadSpec {
  return {
    modelPath: STORIES_PATH,
    contextSize: 256,
    sequences,
    threads,
    flashAttention: false,
    kvCacheType: "f16",
  };
}

function request(prompt: string, numPredict = 40): CompletionRequest {
  return { prompt, sampling: greedySampling(numPredict) };
}

/** What two generations must share to count as the same. */
function same(r: CompletionResult): unknown {
  return {
    text: r.text,
    outputTokens: r.outputTokens,
    promptTokens: r.promptTokens,
    promptEvalCount: r.promptEvalCount,
    evalCount: r.evalCount,
    doneReason: r.doneReason,
  };
}

/**
 * The addon with its models' context calls recorded in `calls` ("step <n sequences>" and
 * "done step" when it resolved, "append <slot>", "embed" and "done embed" on an embeddings
 * context). With `holdFirstStep`, the first step waits until that many prompts are in.
 */
function recordingAddon(
  calls: string[],
  holdFirstStep = 0,
  onAppend: (seq: number) => void = () => {},
): MtmdAddon {
  const addon = loadMtmdAddon("cpu", { buildMissing: false });
  let prompts = 0;
  let release: () => void = () => {};
  const allIn = new Promise<void>((resolve) => {
    release = resolve;
  });
  if (holdFirstStep === 0) release();
  return {
    loadModel: async (options) => {
      calls.push("loadModel");
      const model: NativeMtmdModel = await addon.loadModel(options);
      const embeddingContext: NativeMtmdModel["embeddingContext"] = async (o) => {
        calls.push("embeddingContext");
        const child = await model.embeddingContext(o);
        const embed: NativeMtmdModel["embed"] = async (texts) => {
          calls.push("embed");
          const vectors = await child.embed(texts);
          calls.push("done embed");
          return vectors;
        };
        return withMethods(child, { embed });
      };
      const append: NativeMtmdModel["append"] = async (seq, tokens, logits) => {
        calls.push(`append ${seq}`);
        onAppend(seq);
        await model.append(seq, tokens, logits);
        if (logits && ++prompts === holdFirstStep) release();
      };
      const step: NativeMtmdModel["step"] = async (sequences, feeds) => {
        if (!calls.some((c) => c.startsWith("step"))) await allIn;
        calls.push(`step ${sequences.length}`);
        const stepped = await model.step(sequences, feeds);
        calls.push("done step");
        return stepped;
      };
      return withMethods(model, { append, step, embeddingContext });
    },
  };
}

/** `model` with some methods replaced (the native object's own are read-only: a proxy). */
function withMethods(model: NativeMtmdModel, methods: Partial<NativeMtmdModel>): NativeMtmdModel {
  return new Proxy(model, {
    get(target, key) {
      if (Object.hasOwn(methods, key)) return methods[key as keyof NativeMtmdModel];
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The sizes of the recorded steps. */
function stepSizes(calls: string[]): number[] {
  return calls.filter((c) => c.startsWith("step")).map((c) => Number(c.split(" ")[1]));
}

describe("generation on the addon", {
  skip: storiesSkip() ?? skipUnlessProvided(addonMissing()),
  timeout: 300_000,
}, () => {
  const runtimes: LlamaRuntime[] = [];
  const models: LoadedModel[] = [];
  /** Each prompt generated alone through node-llama-cpp (the addon made unavailable). */
  const reference = new Map<string, CompletionResult>();
  const warnings: string[] = [];

  async function load(runtime: LlamaRuntime, s: LoadSpec): Promise<LoadedModel> {
    if (!runtimes.includes(runtime)) runtimes.push(runtime);
    const model = await runtime.load(s);
    models.push(model);
    return model;
  }

  before(async () => {
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      if (String(chunk).includes("generating through node-llama-cpp")) warnings.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      const fallback = new LlamaRuntime({
        maxThreads: 2,
        generationAddon: () => {
          throw new Error("not built on this machine");
        },
      });
      const slow = await load(fallback, spec(1));
      for (const p of PROMPTS)
        reference.set(p, await slow.complete(0, request(p), () => {}, never));
      // A second model on the same runtime: the warning was already given.
      await load(fallback, spec(2));
    } finally {
      process.stderr.write = write;
    }
  });

  after(async () => {
    for (const m of models) await m.unload();
    for (const r of runtimes) await r.close();
  });

  it("falls back to node-llama-cpp with one warning where the addon is not built", () => {
    assert.equal(warnings.length, 1, warnings.join(""));
    assert.match(warnings[0] ?? "", /not built on this machine/);
    assert.ok(reference.get(PROMPTS[0] ?? "")?.text.length, "the fallback generated text");
  });

  it("generates exactly the text node-llama-cpp generates", async () => {
    const model = await load(new LlamaRuntime({ maxThreads: 2 }), spec(1));
    for (const p of PROMPTS) {
      const r = await model.complete(0, request(p), () => {}, never);
      assert.deepEqual(same(r), same(reference.get(p) as CompletionResult), p);
    }
  });

  it("decodes four slots generating at once in one step per token, with their texts alone", async () => {
    const calls: string[] = [];
    // The first step (one slot's) waits for the four prompts: every later one can carry all four.
    const runtime = new LlamaRuntime({
      maxThreads: 2,
      generationAddon: () => recordingAddon(calls, PROMPTS.length),
    });
    const model = await load(runtime, spec(4));
    const results = await Promise.all(
      PROMPTS.map((p, slot) => model.complete(slot, request(p), () => {}, never)),
    );
    for (const [slot, p] of PROMPTS.entries()) {
      assert.deepEqual(
        same(results[slot] as CompletionResult),
        same(reference.get(p) as CompletionResult),
        p,
      );
    }
    const tokens = results.reduce((n, r) => n + r.evalCount, 0);
    const steps = stepSizes(calls);
    assert.equal(
      steps.reduce((n, k) => n + k, 0),
      tokens,
      "one token per slot per step",
    );
    assert.equal(steps[1], 4, `step sizes ${steps.join(",")}`);
    assert.ok(steps.length < tokens / 2, `${steps.length} steps for ${tokens} tokens`);
  });

  it("runs the generating slots' steps between the parts of a long prompt", async () => {
    const calls: string[] = [];
    const runtime = new LlamaRuntime({
      maxThreads: 2,
      generationAddon: () => recordingAddon(calls),
    });
    const model = await load(runtime, { ...spec(2), contextSize: 1024 });
    let started: () => void = () => {};
    const generating = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = model.complete(0, request(PROMPTS[0] ?? "", 200), () => started(), never);
    await generating;
    // About 700 tokens: several parts of the prompt.
    const long = Array.from({ length: 60 }, (_, i) => PROMPTS[i % PROMPTS.length]).join(". ");
    const second = await model.complete(1, request(long, 5), () => {}, never);
    const one = await first;
    const parts = calls.flatMap((c, i) => (c === "append 1" ? [i] : []));
    assert.ok(parts.length >= 4, `${parts.length} parts`);
    const between = calls.slice(parts[0], parts.at(-1)).filter((c) => c.startsWith("step"));
    assert.ok(between.length >= parts.length - 1, calls.join(", "));
    assert.ok(one.evalCount > 0 && second.evalCount > 0);
  });

  it("keeps the others' texts when one slot is canceled mid-generation", async () => {
    const model = await load(new LlamaRuntime({ maxThreads: 2 }), spec(4));
    const cancel = new AbortController();
    let pieces = 0;
    const results = await Promise.all(
      PROMPTS.map((p, slot) =>
        slot === 1
          ? model.complete(
              slot,
              request(p),
              () => {
                if (++pieces === 5) cancel.abort();
              },
              cancel.signal,
            )
          : model.complete(slot, request(p), () => {}, never),
      ),
    );
    const canceled = results[1] as CompletionResult;
    assert.equal(canceled.aborted, true);
    assert.ok(canceled.evalCount < (reference.get(PROMPTS[1] ?? "")?.evalCount ?? 0));
    for (const [slot, p] of PROMPTS.entries()) {
      if (slot !== 1)
        assert.deepEqual(
          same(results[slot] as CompletionResult),
          same(reference.get(p) as CompletionResult),
          p,
        );
    }
    // The canceled slot generates as before on its next request.
    const again = await model.complete(1, request(PROMPTS[1] ?? ""), () => {}, never);
    assert.deepEqual(same(again), same(reference.get(PROMPTS[1] ?? "") as CompletionResult));
  });

  it("stops a long prompt between its parts when canceled, and reuses what got in", async () => {
    const calls: string[] = [];
    const cancel = new AbortController();
    let parts = 0;
    const runtime = new LlamaRuntime({
      maxThreads: 2,
      generationAddon: () =>
        recordingAddon(calls, 0, (seq) => {
          if (seq === 1 && ++parts === 2) cancel.abort();
        }),
    });
    const model = await load(runtime, { ...spec(2), contextSize: 1024 });
    const long = Array.from({ length: 60 }, (_, i) => PROMPTS[i % PROMPTS.length]).join(". ");
    const canceled = await model.complete(1, request(long, 20), () => {}, cancel.signal);
    assert.equal(canceled.aborted, true);
    assert.equal(canceled.evalCount, 0);
    assert.equal(calls.filter((c) => c === "append 1").length, 2, calls.join(", "));
    // The same prompt again on that slot: the parts already in are kept, the rest evaluated.
    const before = calls.length;
    const resumed = await model.complete(1, request(long, 20), () => {}, never);
    const resumedParts = calls.slice(before).filter((c) => c === "append 1").length;
    const fresh = await model.complete(0, request(long, 20), () => {}, never);
    const freshParts = calls.filter((c) => c === "append 0").length;
    assert.deepEqual(same(resumed), same(fresh));
    assert.ok(resumed.evalCount > 0);
    assert.equal(resumedParts, freshParts - 1, "the first part was kept");
  });

  it("continues a slot's last exchange as a fresh slot would (its cache reused)", async () => {
    const model = await load(new LlamaRuntime({ maxThreads: 2 }), spec(3));
    const first = await model.complete(0, request(PROMPTS[0] ?? ""), () => {}, never);
    // The next turn starts with everything slot 0 holds; a prompt that only shares a prefix, and
    // one that is a prefix of what it holds, follow.
    const prompts = [
      `${PROMPTS[0]}${first.text} Then`,
      `${PROMPTS[0]} there was a dog`,
      `${PROMPTS[0]}`,
    ];
    for (const p of prompts) {
      const reused = await model.complete(0, request(p), () => {}, never);
      const fresh = await model.complete(2, request(p), () => {}, never);
      await model.complete(2, request("Zebras"), () => {}, never);
      assert.deepEqual(same(reused), same(fresh), p);
    }
  });

  it("embeds on a second context of the same weights, with the vectors of a separate load", async () => {
    const calls: string[] = [];
    const runtime = new LlamaRuntime({
      maxThreads: 2,
      generationAddon: () => recordingAddon(calls),
    });
    const model = await load(runtime, spec(2));
    const texts = ["a cat", "Once upon a time there was a dog", "", "the park"];
    const shared = await model.embed(texts, true, never);
    const generated = await model.complete(0, request(PROMPTS[0] ?? ""), () => {}, never);
    const again = await model.embed(texts, true, never);
    // The reference runtime (node-llama-cpp generating) embeds on a load of its own.
    const separate = await models[0]?.embed(texts, true, never);
    assert.deepEqual(shared, separate);
    assert.deepEqual(again, shared);
    assert.deepEqual(same(generated), same(reference.get(PROMPTS[0] ?? "") as CompletionResult));
    assert.deepEqual(
      calls.filter((c) => c === "loadModel" || c === "embeddingContext"),
      ["loadModel", "embeddingContext"],
    );
  });

  /**
   * Generates on two slots while a call embeds 48 texts on the same model with `threads`
   * threads per context and 2 cores: each gives what it gives alone, and steps resolve while
   * the call embeds.
   */
  async function generateWhileEmbedding(threads: number): Promise<void> {
    const calls: string[] = [];
    const runtime = new LlamaRuntime({
      maxThreads: 2,
      generationAddon: () => recordingAddon(calls),
    });
    const model = await load(runtime, spec(2, threads));
    // Long enough texts for several decodes (16 texts or 256 tokens each) in one native call.
    const texts = Array.from({ length: 48 }, (_, i) => `${PROMPTS[i % 4]} and then ${i} more`);
    const alone = await model.embed(texts, true, never);
    calls.length = 0;
    const [vectors, ...generated] = await Promise.all([
      model.embed(texts, true, never),
      model.complete(0, request(PROMPTS[0] ?? ""), () => {}, never),
      model.complete(1, request(PROMPTS[1] ?? ""), () => {}, never),
    ]);
    assert.deepEqual(vectors, alone);
    generated.forEach((r, i) => {
      const p = PROMPTS[i] ?? "";
      assert.deepEqual(same(r), same(reference.get(p) as CompletionResult), p);
    });
    const start = calls.indexOf("embed");
    const end = calls.indexOf("done embed");
    assert.ok(start >= 0 && end > start, calls.join(", "));
    const during = calls.slice(start, end).filter((c) => c === "done step").length;
    assert.ok(during > 0, `no step resolved during the embedding call: ${calls.join(", ")}`);
  }

  it("generates and embeds at once in turns on the same threads, each as it does alone", async () => {
    // 2 threads each on 2 cores: the embeddings context computes on the generating context's
    // thread pool, one decode at a time (turns per decode, not per call: steps resolve while
    // the call embeds).
    await generateWhileEmbedding(2);
  });

  it("generates and embeds side by side with a thread each, each as it does alone", async () => {
    await generateWhileEmbedding(1);
  });

  it("gives the same text on two threads as on one (the context's own thread pool)", async () => {
    const model = await load(new LlamaRuntime({ maxThreads: 2 }), spec(1, 2));
    for (const p of PROMPTS.slice(0, 2)) {
      const r = await model.complete(0, request(p), () => {}, never);
      assert.deepEqual(same(r), same(reference.get(p) as CompletionResult), p);
    }
  });
});
