// A text model generating on our addon: every generating slot decoded in one step per token.
import type { LlamaModel, Token } from "node-llama-cpp";
import { LlmsrvError } from "../errors.js";
import { readGgufInfo } from "../gguf/gguf-reader.js";
import { shapeFromGguf } from "../gguf/model-shape.js";
import { ContextTurns } from "./context-turns.js";
import { GeneratedText } from "./generated-text.js";
import { estimateMemory } from "./memory-estimate.js";
import type {
  CompletionRequest,
  CompletionResult,
  EmbeddingResult,
  LoadedModel,
  LoadSpec,
} from "./model-runner.js";
import { fromNative, isAborted, type NativeMtmdModel } from "./mtmd/mtmd-addon.js";
import { grammarFor, SCHEMA_GRAMMAR_END } from "./mtmd/output-grammar.js";
import { PromptTokens } from "./prompt-tokens.js";
import { SlotStepper } from "./slot-stepper.js";
import { type BatchModelLoader, TextEmbedder } from "./text-embedder.js";
import { TokenTextDecoder } from "./token-text.js";

/**
 * Prompt tokens decoded per native call: small enough that the slots already generating wait
 * little for their next step, large enough that llama.cpp's batched products stay efficient.
 */
const PROMPT_PART = 128;

/**
 * A text model on the CPU, generating through our addon (llama-runtime.ts picks it when the
 * addon is built). node-llama-cpp holds only the vocabulary: prompts are tokenized and
 * fitted exactly as on its path (prompt-tokens.ts), output grammars come from the same
 * generator, and tokens are decoded to text by the same code. The addon holds the weights and
 * one context whose sequences are the slots, with a thread pool of its own; the slots
 * generating at once are decoded in one llama_decode per token (slot-stepper.ts), and a
 * prompt that starts with what the slot's cache holds evaluates only the rest.
 */
export class AddonTextModel implements LoadedModel {
  readonly sizeBytes: number;
  readonly vramBytes = 0;
  private readonly prompts: PromptTokens;
  private readonly embedder: TextEmbedder;
  private readonly turns = new ContextTurns();
  private readonly stepper: SlotStepper;
  /** Tokens that end a generation besides the vocabulary's end-of-generation ones. */
  private readonly extraEnds: ReadonlySet<number>;

  constructor(
    private readonly vocabulary: LlamaModel,
    private readonly native: NativeMtmdModel,
    readonly spec: LoadSpec,
    batchEmbedder: BatchModelLoader,
  ) {
    this.prompts = new PromptTokens(vocabulary, spec.contextSize);
    this.embedder = new TextEmbedder(
      vocabulary,
      spec,
      (t) => this.prompts.tokenize(t),
      batchEmbedder,
    );
    this.stepper = new SlotStepper(native, this.turns);
    this.extraEnds = extraEndTokens(vocabulary);
    const info = native.info();
    const shape = shapeFromGguf(readGgufInfo(spec.modelPath));
    this.sizeBytes = shape
      ? estimateMemory(shape, info.modelBytes, { ...spec, contextSize: info.contextSize }).total
      : info.modelBytes + info.stateBytes;
  }

  async tokenize(text: string): Promise<number[]> {
    return this.prompts.tokenize(text);
  }

  async detokenize(tokens: readonly number[]): Promise<string> {
    return this.vocabulary.detokenize(tokens as Token[], true);
  }

  embed(texts: string[], truncate: boolean, signal: AbortSignal): Promise<EmbeddingResult> {
    return this.embedder.embed(texts, truncate, signal);
  }

  async complete(
    slot: number,
    req: CompletionRequest,
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<CompletionResult> {
    if (slot < 0 || slot >= this.spec.sequences) {
      throw new LlmsrvError("internal", `no sequence slot ${slot}`);
    }
    const grammar = await grammarFor(req.format);
    const { promptTokens, total } = this.prompts.tokensFor(req);
    const room = this.spec.contextSize - total;
    const maxTokens = Math.min(req.sampling.numPredict ?? room, room);
    const started = process.hrtime.bigint();
    const begin = this.prompts.beginningToken();
    const evaluated = begin === null ? promptTokens : [begin, ...promptTokens];
    const stops = [...req.sampling.stop];
    // node-llama-cpp's schema grammars end in this run of newlines, where it stops.
    if (req.format?.kind === "schema") stops.push(SCHEMA_GRAMMAR_END);
    const gen = new GeneratedText(this.decoderFor(promptTokens), stops, onText);
    let reason: "stop" | "length" = maxTokens <= 0 ? "length" : "stop";
    const onAbort = () => this.native.abort(slot);
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      if (!signal.aborted && maxTokens > 0 && evaluated.length > 0) {
        await this.evaluate(slot, Int32Array.from(evaluated), signal);
        this.native.configureSampler(
          slot,
          { ...req.sampling, grammar },
          Int32Array.from(promptTokens),
        );
        reason = await this.stepper.generate(slot, {
          maxTokens,
          isEnd: (token) => this.native.isEndOfGeneration(token) || this.extraEnds.has(token),
          take: (token) => gen.add([token]),
          signal,
        });
      }
    } catch (e) {
      if (!isAborted(e)) throw fromNative(e, "generation failed");
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    gen.finish();
    const end = process.hrtime.bigint();
    const firstToken = gen.firstTokenAt ?? end;
    return {
      text: gen.text,
      doneReason: reason,
      promptTokens,
      outputTokens: gen.tokens,
      promptEvalCount: total,
      evalCount: gen.tokens.length,
      promptEvalNs: Number(firstToken - started),
      evalNs: Number(end - firstToken),
      aborted: signal.aborted,
    };
  }

  /**
   * Puts the prompt's tokens into the slot: what its cache already holds of them stays, the
   * rest is decoded in parts, between which the other slots' generation steps run.
   */
  private async evaluate(slot: number, tokens: Int32Array, signal: AbortSignal): Promise<void> {
    let at = await this.turns.run(() => this.native.keepPrefix(slot, tokens));
    while (at < tokens.length && !signal.aborted) {
      const end = Math.min(tokens.length, at + PROMPT_PART);
      const part = tokens.subarray(at, end);
      await this.turns.run(() => this.native.append(slot, part, end === tokens.length));
      at = end;
    }
  }

  /** A decoder of generated tokens that reads them after the prompt's last tokens. */
  private decoderFor(promptTokens: readonly number[]): TokenTextDecoder {
    const bos = this.vocabulary.tokens.bos;
    const context = promptTokens.length > 0 || bos === null ? promptTokens : [bos];
    return new TokenTextDecoder(
      (tokens, last) => this.vocabulary.detokenize(tokens as Token[], true, last as Token[]),
      context,
    );
  }

  async unload(): Promise<void> {
    for (let seq = 0; seq < this.spec.sequences; seq++) this.native.abort(seq);
    await this.embedder.dispose().catch(() => {});
    await this.native.dispose();
    await this.vocabulary.dispose();
  }
}

/**
 * Tokens node-llama-cpp's completion also ends at: Gemma's `<|file_separator|>` and
 * `<|fim_prefix|>`, which its vocabulary does not mark as end-of-generation.
 */
function extraEndTokens(model: LlamaModel): Set<number> {
  const ends = new Set<number>();
  const arch = (model.fileInfo.metadata as { general?: { architecture?: string } }).general
    ?.architecture;
  if (arch !== "gemma" && arch !== "gemma2") return ends;
  for (const token of model.iterateAllTokens()) {
    const text = model.detokenize([token], true);
    if (text === "<|file_separator|>" || text === "<|fim_prefix|>") ends.add(token);
    if (ends.size === 2) break;
  }
  return ends;
}
