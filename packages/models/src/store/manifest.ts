// Model manifests (Docker image manifest v2): media types, layers, and checking a parsed one.
/** Media types of manifest layers, as Ollama names them. */
export const MediaType = {
  manifest: "application/vnd.docker.distribution.manifest.v2+json",
  config: "application/vnd.docker.container.image.v1+json",
  model: "application/vnd.ollama.image.model",
  template: "application/vnd.ollama.image.template",
  system: "application/vnd.ollama.image.system",
  params: "application/vnd.ollama.image.params",
  license: "application/vnd.ollama.image.license",
  messages: "application/vnd.ollama.image.messages",
  projector: "application/vnd.ollama.image.projector",
  adapter: "application/vnd.ollama.image.adapter",
} as const;

/** One layer (or the config) of a manifest. */
export interface ManifestLayer {
  mediaType: string;
  digest: string;
  size: number;
  from?: string;
}

/** A Docker v2 schema-2 manifest, the shape Ollama stores. */
export interface Manifest {
  schemaVersion: 2;
  mediaType: string;
  config: ManifestLayer;
  layers: ManifestLayer[];
}

/** The config blob a manifest points to. */
export interface ModelConfigBlob {
  model_format: string;
  model_family: string;
  model_families: string[];
  model_type: string;
  file_type: string;
  architecture: string;
  os: string;
  context_length?: number;
  embedding_length?: number;
  parent_model?: string;
}

/** Validates parsed JSON as a manifest; returns undefined when it is not one. */
export function asManifest(value: unknown): Manifest | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Partial<Manifest>;
  if (!m.config || !Array.isArray(m.layers)) return undefined;
  const okLayer = (l: unknown) =>
    typeof l === "object" && l !== null && typeof (l as ManifestLayer).digest === "string";
  return okLayer(m.config) && m.layers.every(okLayer) ? (m as Manifest) : undefined;
}
