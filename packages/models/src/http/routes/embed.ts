// `POST /api/embed` and `/api/embeddings`: embeddings of one or many inputs.
import { LlmsrvError } from "../../errors.js";
import { loadOnly, runEmbedding } from "../../service/completion.js";
import {
  assertFinite,
  l2Normalize,
  parseDimensions,
  truncateDimensions,
} from "../../service/embedding-math.js";
import { parseKeepAlive } from "../../service/request-fields.js";
import { requireModelName } from "../../store/model-name.js";
import { optionalBool, optionalString } from "../request-body.js";
import type { RequestContext } from "../router.js";

/** Reads `input`: a string or an array of strings; anything else is 400. */
export function parseEmbedInput(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value === "" ? [] : [value];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
  throw new LlmsrvError(
    "bad_request",
    "invalid input type: input must be a string or an array of strings",
  );
}

/** `POST /api/embed`: L2-normalised embeddings of one or many inputs. */
export async function embedHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  requireModelName(body.model);
  const model = await ctx.deps.store.get(body.model as string);
  const inputs = parseEmbedInput(body.input);
  const truncate = optionalBool(body, "truncate") ?? true;
  const dimensions = parseDimensions(body.dimensions, model.facts.embeddingLength);
  const keepAliveMs = parseKeepAlive(body.keep_alive);
  if (inputs.length === 0) {
    const loadNs = await loadOnly(ctx.deps, model, body.options, keepAliveMs, ctx.signal);
    return ctx.json(200, {
      model: body.model as string,
      embeddings: [],
      total_duration: loadNs,
      load_duration: loadNs,
      prompt_eval_count: 0,
    });
  }
  const r = await runEmbedding(ctx.deps, model, inputs, {
    options: body.options,
    keepAliveMs,
    truncate,
    signal: ctx.signal,
  });
  assertFinite(r.vectors);
  ctx.json(200, {
    model: body.model as string,
    embeddings: r.vectors.map((v) => truncateDimensions(l2Normalize(v), dimensions)),
    total_duration: r.totalNs,
    load_duration: r.loadNs,
    prompt_eval_count: r.promptTokens,
  });
}

/** `POST /api/embeddings` (legacy): one raw (not normalised) embedding of `prompt`. */
export async function embeddingsHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  requireModelName(body.model);
  const model = await ctx.deps.store.get(body.model as string);
  const prompt = optionalString(body, "prompt") ?? "";
  const keepAliveMs = parseKeepAlive(body.keep_alive);
  if (prompt === "") {
    await loadOnly(ctx.deps, model, body.options, keepAliveMs, ctx.signal);
    return ctx.json(200, { embedding: [] });
  }
  const r = await runEmbedding(ctx.deps, model, [prompt], {
    options: body.options,
    keepAliveMs,
    truncate: true,
    signal: ctx.signal,
  });
  assertFinite(r.vectors);
  ctx.json(200, { embedding: r.vectors[0] ?? [] });
}
