// Reads shared request fields (format, keep_alive, capabilities) in Ollama's terms.
import type { Capability } from "../api/types.js";
import { parseKeepAliveField } from "../duration.js";
import { LlmsrvError } from "../errors.js";
import type { OutputFormat } from "../runtime/model-runner.js";
import type { StoredModel } from "../store/stored-model.js";

/** Reads `format`: absent/"" → none, "json", or a JSON schema object; else 400. */
export function parseFormat(value: unknown): OutputFormat | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (value === "json") return { kind: "json" };
  if (typeof value === "object" && !Array.isArray(value)) return { kind: "schema", schema: value };
  throw new LlmsrvError(
    "bad_request",
    `invalid format: ${JSON.stringify(value)}; expected "json" or a valid JSON Schema object`,
  );
}

/** Reads `keep_alive` in ms (Infinity = forever); 400 with Go's wording when invalid. */
export function parseKeepAlive(value: unknown): number | undefined {
  const r = parseKeepAliveField(value);
  if ("error" in r) throw new LlmsrvError("bad_request", r.error);
  return r.ms;
}

/** Throws 400 `<model> does not support <capability>` when the model lacks it. */
export function requireCapability(model: StoredModel, capability: Capability): void {
  if (!model.facts.capabilities.includes(capability)) {
    throw new LlmsrvError(
      "unsupported_capability",
      `${model.display} does not support ${capability}`,
    );
  }
}

/** RFC 3339 timestamp of now. */
export function nowTimestamp(): string {
  return new Date().toISOString();
}
