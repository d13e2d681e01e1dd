// Model management routes: liveness, version, tags, show, ps, copy and delete.
import type {
  ModelDetails,
  ModelEntry,
  PsResponse,
  RunningModel,
  ShowResponse,
  TagsResponse,
  VersionResponse,
} from "../../api/types.js";
import { LlmsrvError } from "../../errors.js";
import { readGgufInfo } from "../../gguf/gguf-reader.js";
import { renderModelfile, renderParameters } from "../../modelfile/modelfile-render.js";
import { OPTION_DEFAULTS } from "../../runtime/options.js";
import { API_VERSION } from "../../service/deps.js";
import { modelInfoOf } from "../../store/model-info.js";
import { displayName, parseModelName, requireModelName } from "../../store/model-name.js";
import { projectorFactsOf } from "../../store/projector-layers.js";
import type { StoredModel } from "../../store/stored-model.js";
import { DEFAULT_TEMPLATE } from "../../template/ollama-template.js";
import { optionalBool, optionalString } from "../request-body.js";
import type { RequestContext } from "../router.js";

/** `GET|HEAD /`: liveness, as Ollama answers it. */
export async function rootHandler(ctx: RequestContext): Promise<void> {
  ctx.res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
  ctx.res.end(ctx.req.method === "HEAD" ? undefined : "Ollama is running");
}

/** `GET /api/version`. */
export async function versionHandler(ctx: RequestContext): Promise<void> {
  ctx.json(200, { version: API_VERSION } satisfies VersionResponse);
}

function details(m: StoredModel): ModelDetails {
  return { ...m.facts.details, parent_model: m.parentModel };
}

/** The spec's model entry of `/api/tags`. */
export function modelEntry(m: StoredModel): ModelEntry {
  return {
    name: m.display,
    model: m.display,
    modified_at: m.modifiedAt.toISOString(),
    size: m.size,
    digest: m.digest,
    details: details(m),
  };
}

/** `GET /api/tags`: stored models, newest first. */
export async function tagsHandler(ctx: RequestContext): Promise<void> {
  const models = await ctx.deps.store.list();
  ctx.json(200, { models: models.map(modelEntry) } satisfies TagsResponse);
}

/** A projector's `projector_info`: its metadata, every array in full when verbose. */
function projectorInfo(path: string, verbose: boolean, m: StoredModel): Record<string, unknown> {
  if (!verbose) return m.projector?.info ?? {};
  return projectorFactsOf(readGgufInfo(path, { keepArraysUpTo: Number.POSITIVE_INFINITY })).info;
}

/** `POST /api/show`: model information, template, parameters, Modelfile. */
export async function showHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  const nameField = body.model ?? body.name;
  requireModelName(nameField);
  const m = await ctx.deps.store.get(nameField as string);
  const f = m.facts;
  const verbose = optionalBool(body, "verbose") ?? false;
  ctx.json(200, {
    license: m.license.join("\n"),
    modelfile: renderModelfile(m),
    parameters: renderParameters(m.params),
    // Ollama shows its default template for a model with none.
    template: m.template ?? f.chatTemplate ?? DEFAULT_TEMPLATE,
    system: m.system ?? "",
    details: details(m),
    // Verbose: every array in full (the tokenizer's tokens, scores, types, merges), read again.
    model_info: verbose
      ? modelInfoOf(readGgufInfo(m.modelPath, { keepArraysUpTo: Number.POSITIVE_INFINITY }))
      : f.modelInfo,
    ...(m.projectorPath ? { projector_info: projectorInfo(m.projectorPath, verbose, m) } : {}),
    capabilities: f.capabilities,
    modified_at: m.modifiedAt.toISOString(),
    messages: m.messages,
    information: {
      architecture: f.architecture,
      parameters: f.details.parameter_size,
      context_length: f.contextLength ?? null,
      embedding_length: f.embeddingLength ?? null,
      quantization: f.quantization,
      requires: API_VERSION,
      capabilities: f.capabilities,
      default_parameters: {
        temperature: m.params.temperature ?? OPTION_DEFAULTS.temperature,
        top_k: m.params.top_k ?? OPTION_DEFAULTS.top_k,
        top_p: m.params.top_p ?? OPTION_DEFAULTS.top_p,
      },
      license: m.license.join("\n"),
    },
  } satisfies ShowResponse);
}

/** `GET /api/ps`: loaded models with size, expiry, and (beyond Ollama) queue and active counts. */
export async function psHandler(ctx: RequestContext): Promise<void> {
  const models = ctx.deps.scheduler.status().map(
    (s): RunningModel => ({
      name: s.model.display,
      model: s.model.display,
      size: s.sizeBytes,
      digest: s.model.digest,
      details: details(s.model),
      expires_at: s.expiresAt.toISOString(),
      size_vram: s.vramBytes,
      context_length: s.contextLength,
      active: s.active,
      queued: s.queued,
    }),
  );
  ctx.json(200, { models } satisfies PsResponse);
}

/** `POST /api/copy`: `{source, destination}`; copies the manifest only. */
export async function copyHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  const source = optionalString(body, "source");
  const destination = optionalString(body, "destination");
  if (!source || !parseModelName(source))
    throw new LlmsrvError("bad_request", `source "${source ?? ""}" is invalid`);
  const dst = destination ? parseModelName(destination) : undefined;
  if (!dst) throw new LlmsrvError("bad_request", `destination "${destination ?? ""}" is invalid`);
  let model: StoredModel;
  try {
    model = await ctx.deps.store.get(source);
  } catch {
    throw new LlmsrvError("model_not_found", `model "${source}" not found`);
  }
  await ctx.deps.store.copy(model, dst);
  ctx.deps.log.info({ source: model.display, destination: displayName(dst) }, "model copied");
  ctx.res.writeHead(200).end();
}

/** `DELETE /api/delete`: `{model}`; unloads it, removes the manifest and orphaned blobs. */
export async function deleteHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  const nameField = body.model ?? body.name;
  if (typeof nameField !== "string" || !parseModelName(nameField)) {
    throw new LlmsrvError("invalid_model_name", `name "${String(nameField ?? "")}" is invalid`);
  }
  const model = await ctx.deps.store.get(nameField);
  await ctx.deps.store.delete(model);
  // Copies share the weights blob: unload only when no other name still uses it.
  const remaining = await ctx.deps.store.list();
  if (!remaining.some((m) => m.modelDigest === model.modelDigest))
    await ctx.deps.scheduler.stop(model);
  ctx.res.writeHead(200).end();
}
