// `POST /v1/embeddings`: OpenAI embeddings over the native embed path.
import { LlmsrvError } from "../../errors.js";
import { runEmbedding } from "../../service/completion.js";
import {
  assertFinite,
  l2Normalize,
  parseDimensions,
  truncateDimensions,
} from "../../service/embedding-math.js";
import { requireModelName } from "../../store/model-name.js";
import type { RequestContext } from "../router.js";

function parseInput(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string"))
    return value as string[];
  throw new LlmsrvError(
    "bad_request",
    "invalid input: input must be a string or a non-empty array of strings",
  );
}

function encode(v: number[], format: string): number[] | string {
  if (format === "float") return v;
  const buf = Buffer.alloc(v.length * 4);
  for (const [i, x] of v.entries()) buf.writeFloatLE(x, i * 4);
  return buf.toString("base64");
}

/**
 * `POST /v1/embeddings` (OpenAI): `{input, model}` → `{data: [{embedding}]}`, in input order;
 * vectors are L2-normalised; `encoding_format` float (default) or base64.
 */
export async function openaiEmbeddingsHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  requireModelName(body.model);
  const model = await ctx.deps.store.get(body.model as string);
  const inputs = parseInput(body.input);
  const format = body.encoding_format ?? "float";
  if (format !== "float" && format !== "base64") {
    throw new LlmsrvError(
      "bad_request",
      `invalid encoding_format ${JSON.stringify(format)}; expected "float" or "base64"`,
    );
  }
  const dimensions = parseDimensions(body.dimensions, model.facts.embeddingLength);
  const r = await runEmbedding(ctx.deps, model, inputs, {
    options: undefined,
    keepAliveMs: undefined,
    truncate: true,
    signal: ctx.signal,
  });
  assertFinite(r.vectors);
  ctx.json(200, {
    object: "list",
    data: r.vectors.map((v, index) => ({
      object: "embedding",
      embedding: encode(truncateDimensions(l2Normalize(v), dimensions), format as string),
      index,
    })),
    model: body.model as string,
    usage: { prompt_tokens: r.promptTokens, total_tokens: r.promptTokens },
  });
}
