import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LlmsrvError, modelNotFound } from "../errors.js";
import { BlobStore } from "./blob-store.js";
import { readGgufInfo } from "./gguf-reader.js";
import { asManifest, type Manifest, type ManifestLayer, MediaType } from "./manifest.js";
import { factsFromGguf, type ModelFacts, withTemplateCapabilities } from "./model-info.js";
import {
  displayName,
  type ModelName,
  manifestSegments,
  nameKey,
  parseModelName,
} from "./model-name.js";

/** A chat message stored with a model (Modelfile MESSAGE). */
export interface StoredMessage {
  role: string;
  content: string;
}

/** Everything the server needs to know about one stored model. */
export interface StoredModel {
  name: ModelName;
  display: string;
  /** Hex SHA-256 of the manifest bytes (the listing's `digest`). */
  digest: string;
  size: number;
  modifiedAt: Date;
  manifest: Manifest;
  modelPath: string;
  modelDigest: string;
  facts: ModelFacts;
  template: string | undefined;
  system: string | undefined;
  params: Record<string, unknown>;
  license: string[];
  messages: StoredMessage[];
  parentModel: string;
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
}

/**
 * The on-disk model store, laid out like Ollama's: `manifests/<host>/<ns>/<model>/<tag>`
 * and `blobs/sha256-<hex>`.
 */
export class ModelStore {
  readonly root: string;
  readonly blobs: BlobStore;
  private readonly factsCache = new Map<string, ModelFacts>();
  /** Parsed models by manifest path, reused while the manifest file is unchanged. */
  private readonly modelCache = new Map<
    string,
    { mtimeMs: number; size: number; model: StoredModel }
  >();

  constructor(root: string) {
    this.root = root;
    this.blobs = new BlobStore(root);
  }

  private manifestPath(n: ModelName): string {
    return join(this.root, "manifests", ...manifestSegments(n));
  }

  /** Every stored model, newest first. Unreadable manifests are skipped. */
  async list(): Promise<StoredModel[]> {
    const out: StoredModel[] = [];
    for (const segments of await this.manifestFiles()) {
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

  private async manifestFiles(): Promise<string[][]> {
    const walk = async (dir: string, depth: number, prefix: string[]): Promise<string[][]> => {
      let entries: import("node:fs").Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return [];
      }
      const found: string[][] = [];
      for (const e of entries) {
        const next = [...prefix, e.name];
        if (depth === 3 && e.isFile()) found.push(next);
        else if (depth < 3 && e.isDirectory())
          found.push(...(await walk(join(dir, e.name), depth + 1, next)));
      }
      return found;
    };
    return walk(join(this.root, "manifests"), 0, []);
  }

  /** Finds a model by name (case-insensitively); throws 404 in Ollama's words. */
  async get(text: string): Promise<StoredModel> {
    const name = parseModelName(text);
    if (!name) throw modelNotFound(text);
    try {
      return await this.load(name);
    } catch (e) {
      if (e instanceof LlmsrvError && e.code !== "model_not_found") throw e;
      const match = (await this.manifestFiles()).find(
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
    const model = await this.loadUncached(name, path);
    this.modelCache.set(path, { mtimeMs: info.mtimeMs, size: info.size, model });
    return model;
  }

  private async loadUncached(name: ModelName, path: string): Promise<StoredModel> {
    let raw: Buffer;
    try {
      raw = await readFile(path);
    } catch {
      throw modelNotFound(displayName(name));
    }
    const manifest = asManifest(JSON.parse(raw.toString("utf8")));
    if (!manifest)
      throw new LlmsrvError("internal", `manifest of ${displayName(name)} is malformed`);
    const modelLayer = manifest.layers.find((l) => l.mediaType === MediaType.model);
    if (!modelLayer) throw new LlmsrvError("internal", `${displayName(name)} has no model layer`);
    const text = async (media: string) => {
      const layers = manifest.layers.filter((l) => l.mediaType === media);
      return Promise.all(layers.map((l) => readFile(this.blobs.path(l.digest), "utf8")));
    };
    const [template, system, params, license, messages] = await Promise.all(
      [
        MediaType.template,
        MediaType.system,
        MediaType.params,
        MediaType.license,
        MediaType.messages,
      ].map(text),
    );
    const config = await readFile(this.blobs.path(manifest.config.digest), "utf8").then(
      (t) => JSON.parse(t) as { parent_model?: string },
      () => ({}) as { parent_model?: string },
    );
    return {
      name,
      display: displayName(name),
      digest: createHash("sha256").update(raw).digest("hex"),
      size: manifest.layers.reduce((a, l) => a + l.size, manifest.config.size),
      modifiedAt: (await stat(path)).mtime,
      manifest,
      modelPath: this.blobs.path(modelLayer.digest),
      modelDigest: modelLayer.digest,
      facts: withTemplateCapabilities(this.factsFor(modelLayer.digest), template?.[0]),
      template: template?.[0],
      system: system?.[0],
      params: params?.[0] ? (JSON.parse(params[0]) as Record<string, unknown>) : {},
      license: license ?? [],
      messages: messages?.[0] ? (JSON.parse(messages[0]) as StoredMessage[]) : [],
      parentModel: config.parent_model ?? "",
    };
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

  private async layer(media: string, content: string): Promise<ManifestLayer> {
    const digest = await this.blobs.putBytes(content);
    return { mediaType: media, digest, size: Buffer.byteLength(content) };
  }

  /**
   * Writes a model from a recipe: layers inherited from `from`, then replaced by what the
   * recipe sets. The GGUF blob is validated first (400 when it is not GGUF).
   */
  async create(
    name: ModelName,
    recipe: ModelRecipe,
    progress: (s: string) => void = () => {},
  ): Promise<StoredModel> {
    const inherited = recipe.from?.manifest.layers ?? [];
    let modelLayer = inherited.find((l) => l.mediaType === MediaType.model);
    if (recipe.modelDigest) {
      progress("parsing GGUF");
      this.factsCache.delete(recipe.modelDigest);
      this.factsFor(recipe.modelDigest);
      modelLayer = {
        mediaType: MediaType.model,
        digest: recipe.modelDigest,
        size: await this.blobs.size(recipe.modelDigest),
      };
    }
    if (!modelLayer)
      throw new LlmsrvError("bad_request", "neither 'from' or 'files' was specified");
    const layers: ManifestLayer[] = [modelLayer];
    const keep = (media: string) => inherited.filter((l) => l.mediaType === media);
    const replace = async (media: string, value: string | undefined) => {
      if (value === undefined) layers.push(...keep(media));
      else if (value !== "") layers.push(await this.layer(media, value));
    };
    await replace(MediaType.template, recipe.template);
    await replace(MediaType.system, recipe.system);
    if (recipe.license)
      for (const l of recipe.license) layers.push(await this.layer(MediaType.license, l));
    else layers.push(...keep(MediaType.license));
    const params = { ...(recipe.from?.params ?? {}), ...(recipe.parameters ?? {}) };
    if (Object.keys(params).length > 0)
      layers.push(await this.layer(MediaType.params, JSON.stringify(params)));
    const messages = recipe.messages ?? recipe.from?.messages ?? [];
    if (messages.length > 0)
      layers.push(await this.layer(MediaType.messages, JSON.stringify(messages)));
    const config = await this.configLayer(modelLayer.digest, recipe.from?.display ?? "");
    progress("writing manifest");
    await this.writeManifest(name, {
      schemaVersion: 2,
      mediaType: MediaType.manifest,
      config,
      layers,
    });
    return this.load(name);
  }

  private async configLayer(modelDigest: string, parent: string): Promise<ManifestLayer> {
    const f = this.factsFor(modelDigest);
    const config = {
      model_format: "gguf",
      model_family: f.architecture,
      model_families: [f.architecture],
      model_type: f.details.parameter_size,
      file_type: f.quantization,
      architecture: process.arch === "x64" ? "amd64" : process.arch,
      os: process.platform,
      context_length: f.contextLength,
      embedding_length: f.embeddingLength,
      parent_model: parent,
    };
    return this.layer(MediaType.config, JSON.stringify(config));
  }

  private async writeManifest(name: ModelName, manifest: Manifest): Promise<void> {
    const path = this.manifestPath(name);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}`;
    await writeFile(tmp, JSON.stringify(manifest));
    await rename(tmp, path);
    this.modelCache.delete(path);
  }

  /** Copies the manifest only; blobs are shared. */
  async copy(source: StoredModel, destination: ModelName): Promise<void> {
    const bytes = await readFile(this.manifestPath(source.name));
    const path = this.manifestPath(destination);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
    this.modelCache.delete(path);
  }

  /** Removes a manifest, prunes empty folders and blobs no manifest references any more. */
  async delete(model: StoredModel): Promise<void> {
    const path = this.manifestPath(model.name);
    await rm(path);
    this.modelCache.delete(path);
    let dir = dirname(path);
    const top = join(this.root, "manifests");
    while (dir.startsWith(top) && dir !== top) {
      try {
        await rmdir(dir);
      } catch {
        break;
      }
      dir = dirname(dir);
    }
    const keep = new Set<string>();
    for (const m of await this.list()) {
      keep.add(m.manifest.config.digest);
      for (const l of m.manifest.layers) keep.add(l.digest);
    }
    await this.blobs.prune(keep);
  }
}
