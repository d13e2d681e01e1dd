// The model store: Ollama's layout of manifests and blobs, with list, get, create, copy, delete.
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { AsyncLock } from "../async-lock.js";
import { LlmsrvError, modelNotFound } from "../errors.js";
import { checkArchitecture } from "../gguf/gguf-arch-check.js";
import { checkTensorLayout } from "../gguf/gguf-layout-check.js";
import { readGgufInfo } from "../gguf/gguf-reader.js";
import { TrialLoads } from "../gguf/trial-load.js";
import { type AdapterRef, adapterLayers, checkAdapterBlob } from "./adapter-layers.js";
import { type BlobLease, BlobPins } from "./blob-pins.js";
import { BlobStore, digestOf, tempPathFor } from "./blob-store.js";
import { asManifest, type Manifest, type ManifestLayer, MediaType } from "./manifest.js";
import { manifestFiles, referencedDigests, removeEmptyFolders } from "./manifest-files.js";
import { factsFromGguf, type ModelFacts } from "./model-info.js";
import {
  displayName,
  type ModelName,
  manifestSegments,
  nameKey,
  parseModelName,
} from "./model-name.js";
import {
  checkProjectorInfo,
  isProjectorGguf,
  type ProjectorFacts,
  type ProjectorRef,
  projectorFactsOf,
  projectorLayers,
} from "./projector-layers.js";
import { readStoredModel, type StoredMessage, type StoredModel } from "./stored-model.js";

/** How long a trial load at create may take before the file is refused. */
const TRIAL_LOAD_TIMEOUT_MS = 120_000;

/** How the store treats blobs nobody references any more. */
export interface ModelStoreOptions {
  /**
   * Delete a model's replaced layers when a new manifest takes its name and no manifest
   * references them (Ollama's rule; false with LLMSRV_NOPRUNE). Default true.
   */
  pruneReplaced?: boolean;
}

/** Layers and settings for a new model, after Modelfile/request parsing. */
export interface ModelRecipe {
  /** Digest of an existing GGUF blob. */
  modelDigest?: string;
  /** An existing model to inherit every layer from. */
  from?: StoredModel;
  template?: string;
  system?: string;
  license?: string[];
  parameters?: Record<string, unknown>;
  messages?: StoredMessage[];
  /** LoRA adapters to add to those inherited from `from`. */
  adapters?: readonly AdapterRef[];
  /** Multimodal projectors replacing any inherited from `from` (none: those are kept). */
  projectors?: readonly ProjectorRef[];
}

/**
 * The on-disk model store, laid out like Ollama's: `manifests/<host>/<ns>/<model>/<tag>`
 * and `blobs/sha256-<hex>`.
 */
export class ModelStore {
  readonly root: string;
  readonly blobs: BlobStore;
  /** Blobs that creates in progress rely on; deletes keep them. */
  readonly pins = new BlobPins((digest) => this.onUnpinned(digest));
  /** Unreferenced blobs a removal skipped because they were pinned; retried on release. */
  private readonly heldBack = new Set<string>();
  private readonly pruneReplaced: boolean;
  /** Orders manifest writes against deletes' blob removal (both are short). */
  private readonly manifestLock = new AsyncLock();
  private readonly trialLoads = new TrialLoads(TRIAL_LOAD_TIMEOUT_MS);
  private readonly factsCache = new Map<string, ModelFacts>();
  private readonly projectorCache = new Map<string, ProjectorFacts>();
  /** Parsed models by manifest path, reused while the manifest file is unchanged. */
  private readonly modelCache = new Map<
    string,
    { mtimeMs: number; size: number; model: StoredModel }
  >();

  constructor(root: string, options: ModelStoreOptions = {}) {
    this.root = root;
    this.blobs = new BlobStore(root);
    this.pruneReplaced = options.pruneReplaced ?? true;
  }

  private manifestPath(n: ModelName): string {
    return join(this.root, "manifests", ...manifestSegments(n));
  }

  /** Every stored model, newest first. Unreadable manifests are skipped. */
  async list(): Promise<StoredModel[]> {
    const out: StoredModel[] = [];
    for (const segments of await manifestFiles(this.root)) {
      const name = parseModelName(`${segments[0]}/${segments[1]}/${segments[2]}:${segments[3]}`);
      if (!name) continue;
      try {
        out.push(await this.load(name));
      } catch {
        // a manifest whose blobs are missing is not listed
      }
    }
    return out.sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime());
  }

  /** Finds a model by name (case-insensitively); throws 404 in Ollama's words. */
  async get(text: string): Promise<StoredModel> {
    const name = parseModelName(text);
    if (!name) throw modelNotFound(text);
    try {
      return await this.load(name);
    } catch (e) {
      if (e instanceof LlmsrvError && e.code !== "model_not_found") throw e;
      const match = (await manifestFiles(this.root)).find(
        (s) => `${s[0]}/${s[1]}/${s[2]}:${s[3]}`.toLowerCase() === nameKey(name),
      );
      const found = match && parseModelName(`${match[0]}/${match[1]}/${match[2]}:${match[3]}`);
      if (!found) throw modelNotFound(text);
      return this.load(found);
    }
  }

  /** True when a manifest exists under exactly this name. */
  async exists(name: ModelName): Promise<boolean> {
    return stat(this.manifestPath(name)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  /** Loads a model, reusing the parsed form while its manifest file is unchanged. */
  private async load(name: ModelName): Promise<StoredModel> {
    const path = this.manifestPath(name);
    const info = await stat(path).catch(() => undefined);
    if (!info) throw modelNotFound(displayName(name));
    const cached = this.modelCache.get(path);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.model;
    const model = await readStoredModel(
      name,
      path,
      this.blobs,
      (d) => this.factsFor(d),
      (d) => this.projectorFactsFor(d),
    );
    this.modelCache.set(path, { mtimeMs: info.mtimeMs, size: info.size, model });
    return model;
  }

  /**
   * Reads a new model blob's GGUF header and checks it against its tensors and the file
   * (layout, sizes, architecture metadata); 400 naming the problem. Caches its facts.
   */
  checkModelBlob(digest: string): ModelFacts {
    const info = readGgufInfo(this.blobs.path(digest));
    checkTensorLayout(info);
    checkArchitecture(info);
    const facts = factsFromGguf(info);
    this.factsCache.set(digest, facts);
    return facts;
  }

  /**
   * Accepts a new model blob only when it passes `checkModelBlob` and llama.cpp loads it
   * in a short-lived child process (`trialLoad`). Loads run one at a time; a digest that
   * loaded once is not loaded again.
   */
  async acceptModelBlob(digest: string): Promise<ModelFacts> {
    const facts = this.checkModelBlob(digest);
    await this.trialLoads.check(digest, this.blobs.path(digest));
    return facts;
  }

  /** 400 when an adapter blob is not a LoRA GGUF that fits the model blob (adapter-layers.ts). */
  checkAdapterBlob(adapter: AdapterRef, modelDigest: string): void {
    checkAdapterBlob(this.blobs, adapter, modelDigest);
  }

  /**
   * Whether an uploaded GGUF is a model or a multimodal projector (`general.architecture`
   * `clip`, as Ollama tells them apart); `not_gguf` when it is no GGUF.
   */
  ggufKindOf(digest: string): "model" | "projector" {
    return isProjectorGguf(readGgufInfo(this.blobs.path(digest))) ? "projector" : "model";
  }

  /** 400 naming the projector when its blob is not a projector GGUF llama.cpp can take; caches its facts. */
  checkProjectorBlob(projector: ProjectorRef): ProjectorFacts {
    const label = JSON.stringify(projector.name);
    let info: ReturnType<typeof readGgufInfo>;
    try {
      info = readGgufInfo(this.blobs.path(projector.digest));
    } catch (e) {
      if (!(e instanceof LlmsrvError) || e.code !== "not_gguf") throw e;
      throw new LlmsrvError("bad_request", `invalid projector ${label}: ${e.message}`);
    }
    const facts = checkProjectorInfo(info, label);
    this.projectorCache.set(projector.digest, facts);
    return facts;
  }

  /** Header facts of a projector blob, read once and cached by digest. */
  projectorFactsFor(digest: string): ProjectorFacts {
    let facts = this.projectorCache.get(digest);
    if (!facts) {
      facts = projectorFactsOf(readGgufInfo(this.blobs.path(digest)));
      this.projectorCache.set(digest, facts);
    }
    return facts;
  }

  /** GGUF facts of a model blob, read once and cached by digest. */
  factsFor(digest: string): ModelFacts {
    let facts = this.factsCache.get(digest);
    if (!facts) {
      facts = factsFromGguf(readGgufInfo(this.blobs.path(digest)));
      this.factsCache.set(digest, facts);
    }
    return facts;
  }

  private async layer(media: string, content: string, pins: BlobLease): Promise<ManifestLayer> {
    pins.pin(digestOf(content));
    const digest = await this.blobs.putBytes(content);
    return { mediaType: media, digest, size: Buffer.byteLength(content) };
  }

  /**
   * Writes a model from a recipe: layers inherited from `from`, then replaced by what the
   * recipe sets. The GGUF blob is validated first (400 when it is not GGUF). Every blob
   * the model uses is pinned on `lease` (or a lease of its own) until the manifest is
   * written, so a concurrent delete cannot remove it.
   */
  async create(
    name: ModelName,
    recipe: ModelRecipe,
    progress: (s: string) => void = () => {},
    lease?: BlobLease,
  ): Promise<StoredModel> {
    const own = lease ? undefined : this.pins.lease();
    const pins = (lease ?? own) as BlobLease;
    try {
      const inherited = recipe.from?.manifest.layers ?? [];
      for (const l of inherited) pins.pin(l.digest);
      if (recipe.modelDigest) pins.pin(recipe.modelDigest);
      for (const a of recipe.adapters ?? []) pins.pin(a.digest);
      for (const p of recipe.projectors ?? []) pins.pin(p.digest);
      const modelLayer = await this.modelLayerOf(recipe, inherited, progress);
      for (const a of recipe.adapters ?? []) this.checkAdapterBlob(a, modelLayer.digest);
      for (const p of recipe.projectors ?? []) this.checkProjectorBlob(p);
      return await this.manifestLock.run(async () => {
        const layers = await this.layersFor(recipe, inherited, modelLayer, pins);
        const projector = layers.find((l) => l.mediaType === MediaType.projector);
        const config = await this.configLayer(
          modelLayer.digest,
          recipe.from?.display ?? "",
          projector && this.projectorFactsFor(projector.digest).architecture,
        );
        pins.pin(config.digest);
        await this.requireBlobs([config, ...layers]);
        progress("writing manifest");
        await this.writeManifest(name, {
          schemaVersion: 2,
          mediaType: MediaType.manifest,
          config,
          layers,
        });
        return this.load(name);
      });
    } finally {
      own?.release();
    }
  }

  private async modelLayerOf(
    recipe: ModelRecipe,
    inherited: readonly ManifestLayer[],
    progress: (s: string) => void,
  ): Promise<ManifestLayer> {
    if (recipe.modelDigest) {
      progress("parsing GGUF");
      this.checkModelBlob(recipe.modelDigest);
      return {
        mediaType: MediaType.model,
        digest: recipe.modelDigest,
        size: await this.blobs.size(recipe.modelDigest),
      };
    }
    const layer = inherited.find((l) => l.mediaType === MediaType.model);
    if (!layer) throw new LlmsrvError("bad_request", "neither 'from' or 'files' was specified");
    return layer;
  }

  private async layersFor(
    recipe: ModelRecipe,
    inherited: readonly ManifestLayer[],
    modelLayer: ManifestLayer,
    pins: BlobLease,
  ): Promise<ManifestLayer[]> {
    const adapters = await adapterLayers(this.blobs, inherited, recipe.adapters ?? []);
    const projectors = await projectorLayers(this.blobs, inherited, recipe.projectors ?? []);
    const layers: ManifestLayer[] = [modelLayer, ...projectors, ...adapters];
    const add = async (media: string, content: string) => {
      const l = await this.layer(media, content, pins);
      layers.push(l);
    };
    const keep = (media: string) => inherited.filter((l) => l.mediaType === media);
    const replace = async (media: string, value: string | undefined) => {
      if (value === undefined) layers.push(...keep(media));
      else if (value !== "") await add(media, value);
    };
    await replace(MediaType.template, recipe.template);
    await replace(MediaType.system, recipe.system);
    if (recipe.license) for (const l of recipe.license) await add(MediaType.license, l);
    else layers.push(...keep(MediaType.license));
    const params = { ...(recipe.from?.params ?? {}), ...(recipe.parameters ?? {}) };
    if (Object.keys(params).length > 0) await add(MediaType.params, JSON.stringify(params));
    const messages = recipe.messages ?? recipe.from?.messages ?? [];
    if (messages.length > 0) await add(MediaType.messages, JSON.stringify(messages));
    return layers;
  }

  /** Refuses to write a manifest whose blobs are gone (removed before they were pinned). */
  private async requireBlobs(layers: readonly ManifestLayer[]): Promise<void> {
    for (const l of layers) {
      if (!(await this.blobs.has(l.digest)))
        throw new LlmsrvError(
          "bad_request",
          `blob ${l.digest} was removed while creating the model`,
        );
    }
  }

  /** The config blob; a projector's architecture joins the families, as in Ollama's. */
  private async configLayer(
    modelDigest: string,
    parent: string,
    projectorArchitecture: string | undefined,
  ): Promise<ManifestLayer> {
    const f = this.factsFor(modelDigest);
    const families = [f.architecture];
    if (projectorArchitecture && projectorArchitecture !== f.architecture)
      families.push(projectorArchitecture);
    const config = {
      model_format: "gguf",
      model_family: f.architecture,
      model_families: families,
      model_type: f.details.parameter_size,
      file_type: f.quantization,
      architecture: process.arch === "x64" ? "amd64" : process.arch,
      os: process.platform,
      context_length: f.contextLength,
      embedding_length: f.embeddingLength,
      parent_model: parent,
    };
    const text = JSON.stringify(config);
    const digest = await this.blobs.putBytes(text);
    return { mediaType: MediaType.config, digest, size: Buffer.byteLength(text) };
  }

  /**
   * Writes a manifest atomically through a temporary name unique to this write, then
   * removes the layers of the manifest it replaced that nothing references any more.
   * Callers hold the manifest lock. A name differing only in case from a stored model's
   * is refused: on a case-insensitive file system both would be one file anyway.
   */
  private async writeManifest(name: ModelName, manifest: Manifest | Buffer): Promise<void> {
    await this.refuseCaseVariant(name);
    const path = this.manifestPath(name);
    const replaced = await readFile(path, "utf8").then(
      (t) => asManifest(JSON.parse(t)),
      () => undefined,
    );
    await mkdir(dirname(path), { recursive: true });
    const tmp = join(dirname(path), `.${tempPathFor(basename(path))}`);
    try {
      await writeFile(tmp, Buffer.isBuffer(manifest) ? manifest : JSON.stringify(manifest));
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    this.modelCache.delete(path);
    if (replaced && this.pruneReplaced)
      await this.removeUnreferenced([replaced.config, ...replaced.layers].map((l) => l.digest));
  }

  /** 400 in Ollama's words when a stored model's name equals `name` but for case. */
  async refuseCaseVariant(name: ModelName): Promise<void> {
    const exact = manifestSegments(name).join("/");
    const key = exact.toLowerCase();
    for (const segments of await manifestFiles(this.root)) {
      const other = segments.join("/");
      if (other !== exact && other.toLowerCase() === key)
        throw new LlmsrvError("bad_request", "a model with that name already exists");
    }
  }

  /**
   * Removes those of `digests` that no manifest references; a pinned one (a create or pull
   * in progress relies on it) is held back and removed when its last pin is released,
   * unless a manifest references it by then. Nothing is removed when a manifest cannot
   * be parsed. Callers hold the manifest lock.
   */
  private async removeUnreferenced(digests: readonly string[]): Promise<void> {
    const referenced = await referencedDigests(this.root);
    if (!referenced) return;
    for (const digest of new Set(digests)) {
      if (referenced.has(digest)) continue;
      if (this.pins.has(digest)) {
        this.heldBack.add(digest);
        continue;
      }
      await this.blobs.remove(digest);
      this.factsCache.delete(digest);
      this.projectorCache.delete(digest);
    }
  }

  private onUnpinned(digest: string): void {
    if (!this.heldBack.delete(digest)) return;
    void this.manifestLock.run(() => this.removeUnreferenced([digest])).catch(() => {});
  }

  /**
   * Writes a manifest received as bytes (a pull) under `name`, kept byte for byte so its
   * digest is the registry's; refused when a blob it names is missing.
   */
  async putManifest(name: ModelName, bytes: Buffer, manifest: Manifest): Promise<void> {
    await this.manifestLock.run(async () => {
      await this.requireBlobs([manifest.config, ...manifest.layers]);
      await this.writeManifest(name, bytes);
    });
  }

  /** The stored manifest's bytes (what a push sends). */
  async manifestBytes(model: StoredModel): Promise<Buffer> {
    return readFile(this.manifestPath(model.name)).catch(() => {
      throw modelNotFound(model.display);
    });
  }

  /** Copies the manifest only; blobs are shared. */
  async copy(source: StoredModel, destination: ModelName): Promise<void> {
    await this.manifestLock.run(async () => {
      const bytes = await readFile(this.manifestPath(source.name)).catch(() => {
        throw modelNotFound(source.display);
      });
      await this.writeManifest(destination, bytes);
    });
  }

  /**
   * Removes a manifest, prunes empty folders, then removes those of its blobs that no
   * other manifest references and no create in progress has pinned (Ollama's rule: a
   * delete removes only the deleted model's own layers; uploads nobody uses yet stay).
   */
  async delete(model: StoredModel): Promise<void> {
    await this.manifestLock.run(async () => {
      const path = this.manifestPath(model.name);
      await rm(path);
      this.modelCache.delete(path);
      await removeEmptyFolders(join(this.root, "manifests"), dirname(path));
      await this.removeUnreferenced(
        [model.manifest.config, ...model.manifest.layers].map((l) => l.digest),
      );
    });
  }
}
