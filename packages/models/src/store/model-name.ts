// Model names as Ollama reads them: host/namespace/model:tag, defaults and checks.
import { LlmsrvError } from "../errors.js";

/** Defaults applied to a short name, as Ollama does. */
export const DEFAULT_HOST = "registry.ollama.ai";
export const DEFAULT_NAMESPACE = "library";
export const DEFAULT_TAG = "latest";

/** A fully qualified model name: `host/namespace/model:tag`. */
export interface ModelName {
  readonly host: string;
  readonly namespace: string;
  readonly model: string;
  readonly tag: string;
}

const PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,79}$/;
const NAMESPACE = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,79}$/;
const HOST = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,349}$/;

/**
 * Parses `[host/][namespace/]model[:tag]`. The tag is split off only when the last `:`
 * comes after the last `/`, so `localhost:5000/ns/m` keeps its port. Returns undefined
 * when any part is invalid.
 */
export function parseModelName(text: string): ModelName | undefined {
  let rest = text.trim().replace(/^https?:\/\//, "");
  let tag = DEFAULT_TAG;
  const colon = rest.lastIndexOf(":");
  if (colon > rest.lastIndexOf("/")) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const parts = rest.split("/");
  if (parts.length > 3) return undefined;
  const model = parts.pop() ?? "";
  const namespace = parts.pop() ?? DEFAULT_NAMESPACE;
  const host = parts.pop() ?? DEFAULT_HOST;
  const ok = PART.test(model) && PART.test(tag) && NAMESPACE.test(namespace) && HOST.test(host);
  return ok ? { host, namespace, model, tag } : undefined;
}

/** Like parseModelName, but throws a 400 `invalid_model_name` naming the input. */
export function requireModelName(text: unknown, field = "model"): ModelName {
  if (typeof text !== "string" || text.trim() === "") {
    throw new LlmsrvError("bad_request", `${field} is required`);
  }
  const name = parseModelName(text);
  if (!name) throw new LlmsrvError("invalid_model_name", `invalid model name "${text}"`);
  return name;
}

/** Shortest display form: default host and `library` namespace dropped, tag always shown. */
export function displayName(n: ModelName): string {
  const prefix =
    n.host === DEFAULT_HOST
      ? n.namespace === DEFAULT_NAMESPACE
        ? ""
        : `${n.namespace}/`
      : `${n.host}/${n.namespace}/`;
  return `${prefix}${n.model}:${n.tag}`;
}

/** Path segments of the manifest under `manifests/`. */
export function manifestSegments(n: ModelName): [string, string, string, string] {
  return [n.host, n.namespace, n.model, n.tag];
}

/** Case-insensitive identity, used to compare names. */
export function nameKey(n: ModelName): string {
  return `${n.host}/${n.namespace}/${n.model}:${n.tag}`.toLowerCase();
}
