// `POST /api/create`: a model from a GGUF blob, a path or another model, with its layers.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { LlmsrvError } from "../../errors.js";
import { optionDefaults, resolveOptions } from "../../runtime/options.js";
import { parseMessages } from "../../service/chat.js";
import type { AdapterRef } from "../../store/adapter-layers.js";
import type { BlobLease } from "../../store/blob-pins.js";
import { digestOfFile, normalizeDigest } from "../../store/blob-store.js";
import { requireModelName } from "../../store/model-name.js";
import type { ModelRecipe, ModelStore } from "../../store/model-store.js";
import type { ProjectorRef } from "../../store/projector-layers.js";
import type { StoredModel } from "../../store/stored-model.js";
import { detectTemplate } from "../../template/template-autodetect.js";
import { checkChatTemplate, checkGoTemplate } from "../../template/template-check.js";
import { NdjsonWriter } from "../ndjson.js";
import { optionalBool, optionalString } from "../request-body.js";
import type { RequestContext } from "../router.js";

/** The GGUFs a create's `files` names: at most one model, and projectors to go with it. */
interface FileBlobs {
  modelDigest: string | undefined;
  projectors: ProjectorRef[];
}

/**
 * `files` (file name → blob digest, as Ollama's client sends a Modelfile's FROM files):
 * every blob must have been uploaded and is pinned from here on. Each is a model GGUF or,
 * with `general.architecture` `clip`, a multimodal projector (Ollama's rule). A lone file
 * that is no GGUF answers the reader's message; among several, the message names the file.
 */
async function blobsFromFiles(
  store: ModelStore,
  files: unknown,
  lease: BlobLease,
): Promise<FileBlobs> {
  if (typeof files !== "object" || files === null || Array.isArray(files)) {
    throw new LlmsrvError("bad_request", `field "files" must be an object of file name to digest`);
  }
  const entries = Object.entries(files as Record<string, unknown>);
  if (entries.length === 0) throw new LlmsrvError("bad_request", "files must name a GGUF file");
  const models: string[] = [];
  const out: FileBlobs = { modelDigest: undefined, projectors: [] };
  for (const [fileName, digest] of entries) {
    if (isAbsolute(fileName) || fileName.split(/[\\/]/).includes("..")) {
      throw new LlmsrvError("bad_request", "file path must be relative");
    }
    if (typeof digest !== "string")
      throw new LlmsrvError("bad_request", `digest of "${fileName}" must be a string`);
    const d = normalizeDigest(digest);
    lease.pin(d);
    if (!(await store.blobs.has(d)))
      throw new LlmsrvError("bad_request", `blob ${d} for "${fileName}" has not been uploaded`);
    let kind: "model" | "projector";
    try {
      kind = store.ggufKindOf(d);
    } catch (e) {
      if (entries.length === 1 || !(e instanceof LlmsrvError) || e.code !== "not_gguf") throw e;
      throw new LlmsrvError("not_gguf", `invalid file ${JSON.stringify(fileName)}: ${e.message}`);
    }
    if (kind === "projector") out.projectors.push({ name: fileName, digest: d });
    else {
      models.push(fileName);
      out.modelDigest = d;
    }
  }
  const names = (list: string[]) => list.map((n) => JSON.stringify(n)).join(", ");
  if (models.length > 1)
    throw new LlmsrvError("bad_request", `files name more than one model GGUF: ${names(models)}`);
  if (out.projectors.length > 1)
    throw new LlmsrvError(
      "bad_request",
      `files name more than one projector GGUF (a model takes one): ${names(out.projectors.map((p) => p.name))}`,
    );
  return out;
}

/** FROM as an existing model name, or (an llmsrv extension) an absolute GGUF path on the server. */
async function resolveFrom(
  store: ModelStore,
  from: string,
  lease: BlobLease,
): Promise<{ model?: StoredModel; digest?: string }> {
  if (isAbsolute(from)) {
    if (!existsSync(from))
      throw new LlmsrvError("bad_request", `file ${from} does not exist on the server`);
    const fileDigest = await digestOfFile(from);
    lease.pin(fileDigest);
    const known = await store.blobs.has(fileDigest);
    const digest = await store.blobs.putFile(from);
    try {
      await store.acceptModelBlob(digest);
    } catch (e) {
      if (!known) await rm(store.blobs.path(digest), { force: true }); // not a model: keep nothing
      throw e;
    }
    return { digest };
  }
  try {
    const model = await store.get(from);
    for (const l of [model.manifest.config, ...model.manifest.layers]) lease.pin(l.digest);
    return { model };
  } catch (e) {
    if (e instanceof LlmsrvError && e.code === "model_not_found")
      throw new LlmsrvError("model_not_found", `model '${from}' not found`);
    throw e;
  }
}

function parseLicense(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
  throw new LlmsrvError("bad_request", `field "license" must be a string or an array of strings`);
}

function parseParameters(ctx: RequestContext, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value))
    throw new LlmsrvError("bad_request", `field "parameters" must be an object`);
  resolveOptions(value as Record<string, unknown>, undefined, optionDefaults(ctx.deps.config));
  return value as Record<string, unknown>;
}

/**
 * Ollama's template detection for a GGUF created without a TEMPLATE: the Go template whose
 * Jinja text is closest to the GGUF's chat template (see template-autodetect.ts), with its
 * default parameters under the request's. Needs `LLMSRV_TEMPLATES`; returns the name chosen.
 */
function autodetectTemplate(
  ctx: RequestContext,
  recipe: ModelRecipe,
  chatTemplate: string | undefined,
): string | undefined {
  const dir = ctx.deps.config.templatesDir;
  // An empty TEMPLATE counts as none, as in Ollama.
  if (recipe.template || chatTemplate === undefined || dir === undefined) return undefined;
  const detected = detectTemplate(dir, chatTemplate);
  if (!detected) return undefined;
  recipe.template = detected.template;
  recipe.parameters = { ...(detected.parameters ?? {}), ...(recipe.parameters ?? {}) };
  return detected.name;
}

/**
 * `adapters` (LoRA, file name → blob digest, as Ollama's client sends them): every blob
 * must have been uploaded; each is pinned from here until the manifest is written. The
 * names only label the adapters in errors (Ollama's client sends full paths).
 */
async function adaptersFromRequest(
  store: ModelStore,
  value: unknown,
  lease: BlobLease,
): Promise<AdapterRef[]> {
  if (value === undefined || value === null) return [];
  if (typeof value !== "object" || Array.isArray(value))
    throw new LlmsrvError(
      "bad_request",
      `field "adapters" must be an object of file name to digest`,
    );
  const adapters: AdapterRef[] = [];
  for (const [name, digest] of Object.entries(value as Record<string, unknown>)) {
    if (typeof digest !== "string")
      throw new LlmsrvError("bad_request", `digest of adapter "${name}" must be a string`);
    const d = normalizeDigest(digest);
    lease.pin(d);
    if (!(await store.blobs.has(d)))
      throw new LlmsrvError("bad_request", `blob ${d} for adapter "${name}" has not been uploaded`);
    adapters.push({ name, digest: d });
  }
  return adapters;
}

/** Builds the recipe from the request, validating everything before any progress is sent. */
async function recipeFor(
  ctx: RequestContext,
  body: Record<string, unknown>,
  lease: BlobLease,
): Promise<ModelRecipe & { autodetected?: string }> {
  if (body.quantize !== undefined && body.quantize !== null) {
    throw new LlmsrvError("bad_request", "quantization is not supported by this server");
  }
  const from = optionalString(body, "from");
  const recipe: ModelRecipe & { autodetected?: string } = {
    template: optionalString(body, "template"),
    system: optionalString(body, "system"),
    license: parseLicense(body.license),
    parameters: parseParameters(ctx, body.parameters),
    messages:
      body.messages === undefined
        ? undefined
        : parseMessages(body.messages).map(({ role, content }) => ({ role, content })),
  };
  const files =
    body.files !== undefined && body.files !== null
      ? await blobsFromFiles(ctx.deps.store, body.files, lease)
      : undefined;
  // A projector file may go with a model named in `from` (FROM model + FROM mmproj.gguf).
  if (files?.modelDigest) recipe.modelDigest = files.modelDigest;
  else if (files && !from)
    throw new LlmsrvError(
      "bad_request",
      `files name no model GGUF, only the projector ${JSON.stringify(files.projectors[0]?.name)}; add the model's GGUF or name a model in 'from'`,
    );
  else if (from)
    Object.assign(
      recipe,
      await resolveFrom(ctx.deps.store, from, lease).then((r) => ({
        from: r.model,
        modelDigest: r.digest,
      })),
    );
  else throw new LlmsrvError("bad_request", "neither 'from' or 'files' was specified");
  recipe.adapters = await adaptersFromRequest(ctx.deps.store, body.adapters, lease);
  recipe.projectors = files?.projectors ?? [];
  for (const p of recipe.projectors) ctx.deps.store.checkProjectorBlob(p);
  // A looping template is refused before it is stored rather than failing on every use.
  if (recipe.template !== undefined) checkGoTemplate(recipe.template);
  if (recipe.modelDigest) {
    // 400 when the file is inconsistent or llama.cpp cannot load it
    await ctx.deps.store.acceptModelBlob(recipe.modelDigest);
    const chatTemplate = ctx.deps.store.factsFor(recipe.modelDigest).chatTemplate;
    if (chatTemplate !== undefined) checkChatTemplate(chatTemplate);
    recipe.autodetected = autodetectTemplate(ctx, recipe, chatTemplate);
  }
  // An adapter that does not fit its base is a 400 before any progress is streamed.
  const base = recipe.modelDigest ?? recipe.from?.modelDigest;
  if (base) for (const a of recipe.adapters) ctx.deps.store.checkAdapterBlob(a, base);
  return recipe;
}

/**
 * `POST /api/create`: a model from a GGUF blob or an existing model plus settings. The
 * blobs it uses are pinned from the moment they are named until the manifest is written.
 */
export async function createHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  const name = requireModelName(body.model ?? body.name);
  const stream = optionalBool(body, "stream") ?? true;
  const store = ctx.deps.store;
  // Checked again when the manifest is written; here so that the refusal is a 400.
  await store.refuseCaseVariant(name);
  const lease = store.pins.lease();
  try {
    const recipe = await recipeFor(ctx, body, lease);
    if (!stream) {
      await store.create(name, recipe, undefined, lease);
      return ctx.json(200, { status: "success" });
    }
    const out = new NdjsonWriter(ctx.res);
    if (recipe.autodetected)
      out.write({ status: `using autodetected template ${recipe.autodetected}` });
    try {
      await store.create(name, recipe, (status) => out.write({ status }), lease);
      out.write({ status: "success" });
    } catch (e) {
      out.writeError(e);
    }
    out.end();
  } finally {
    lease.release();
  }
}
