// The registry client: Docker registry v2 requests with Ollama's token challenge.
import { LlmsrvError } from "../errors.js";
import { MediaType } from "../store/manifest.js";
import { DEFAULT_HOST, type ModelName } from "../store/model-name.js";

/**
 * The registry side of pull and push: the Docker registry v2 protocol Ollama speaks
 * (`/v2/<namespace>/<model>/manifests/<tag>`, `/v2/<namespace>/<model>/blobs/<digest>`,
 * `/v2/<namespace>/<model>/blobs/uploads/`). `hf.co/<user>/<repo>:<quant>` names need
 * nothing special: Hugging Face serves the same protocol at https://hf.co.
 */

/** Manifests list a few layers; anything this large is not one. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** Where and how to reach the registry of one model name. */
export interface RegistrySettings {
  /** `LLMSRV_REGISTRY`: replaces https://registry.ollama.ai for default-host names. */
  readonly mirror?: string;
  /** `LLMSRV_REGISTRY_TOKEN`, sent as a bearer token. */
  readonly token?: string;
  /** Plain HTTP for names that carry their own host (`--insecure`). */
  readonly insecure?: boolean;
  /** Wait before the first retry of an interrupted blob download, doubled each time (Ollama: 1 s). */
  readonly retryDelayMs?: number;
  /** Told of each retry of a blob download (the server logs it). */
  readonly onRetry?: (message: string) => void;
}

/** A registry that could not be reached at all (connection refused or reset before an answer). */
export class RegistryUnreachable extends LlmsrvError {}

/** Base URL of a name's registry: the mirror for the default host, else its own host. */
export function registryBase(name: ModelName, settings: RegistrySettings): string {
  if (name.host === DEFAULT_HOST && settings.mirror) return settings.mirror;
  return `${settings.insecure ? "http" : "https"}://${name.host}`;
}

/** A client of one model's repository on its registry. */
export class RegistryClient {
  readonly base: string;
  private readonly repo: string;

  constructor(
    readonly name: ModelName,
    private readonly settings: RegistrySettings,
  ) {
    this.base = registryBase(name, settings);
    this.repo = `${this.base}/v2/${name.namespace}/${name.model}`;
  }

  /** A token a registry issued after a challenge; replaces the configured one. */
  private issued: string | undefined;

  /**
   * A request with the token; network failures become errors naming the registry. A 401
   * carrying a Bearer challenge (`WWW-Authenticate: Bearer realm=...`, the Docker registry
   * token flow) gets a token from the realm and is retried once, when it has no streamed body.
   */
  async send(url: string, init: RequestInit & { duplex?: "half" } = {}): Promise<Response> {
    const res = await this.attempt(url, init);
    const challenge = res.headers.get("www-authenticate");
    const replayable = !(init.body instanceof ReadableStream);
    if (res.status !== 401 || !challenge || !replayable) return res;
    const token = await this.tokenFor(challenge);
    if (!token) return res;
    await res.body?.cancel();
    this.issued = token;
    return this.attempt(url, init);
  }

  private async attempt(url: string, init: RequestInit & { duplex?: "half" }): Promise<Response> {
    const headers = new Headers(init.headers);
    const token = this.issued ?? this.settings.token;
    if (token) headers.set("Authorization", `Bearer ${token}`);
    try {
      return await fetch(url, { ...init, headers });
    } catch (e) {
      if (init.signal?.aborted) throw e;
      const cause = (e as { cause?: { message?: string } }).cause?.message;
      throw new RegistryUnreachable(
        "internal",
        `could not reach registry ${this.base}: ${cause ?? (e as Error).message}`,
      );
    }
  }

  /** Answers a Bearer challenge at its realm; undefined when it is not one or fails. */
  private async tokenFor(challenge: string): Promise<string | undefined> {
    if (!/^Bearer\s/i.test(challenge)) return undefined;
    const params = new Map<string, string>();
    for (const m of challenge.matchAll(/(\w+)="([^"]*)"/g))
      params.set((m[1] as string).toLowerCase(), m[2] as string);
    const realm = params.get("realm");
    if (!realm) return undefined;
    const url = new URL(realm, this.base);
    for (const key of ["service", "scope"]) {
      const v = params.get(key);
      if (v) url.searchParams.set(key, v);
    }
    const headers: Record<string, string> = this.settings.token
      ? { Authorization: `Bearer ${this.settings.token}` }
      : {};
    const res = await fetch(url, { headers }).catch(() => undefined);
    if (!res?.ok) return undefined;
    const body = (await res.json().catch(() => ({}))) as { token?: string; access_token?: string };
    return body.token ?? body.access_token;
  }

  /** The manifest's raw bytes; Ollama's words for a name the registry does not have. */
  async manifest(signal?: AbortSignal): Promise<Buffer> {
    const res = await this.send(`${this.repo}/manifests/${this.name.tag}`, {
      headers: { Accept: MediaType.manifest },
      signal,
    });
    if (res.status === 404) {
      await res.body?.cancel();
      throw new LlmsrvError("model_not_found", "pull model manifest: file does not exist");
    }
    await this.require(res, "pull model manifest");
    const declared = Number(res.headers.get("content-length") ?? 0);
    if (declared > MAX_MANIFEST_BYTES) {
      await res.body?.cancel();
      throw new LlmsrvError(
        "internal",
        `pull model manifest: larger than ${MAX_MANIFEST_BYTES} bytes`,
      );
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > MAX_MANIFEST_BYTES)
      throw new LlmsrvError(
        "internal",
        `pull model manifest: larger than ${MAX_MANIFEST_BYTES} bytes`,
      );
    return bytes;
  }

  /** A blob's bytes from `offset` on (a Range request when resuming). */
  async blob(digest: string, offset: number, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = offset > 0 ? { Range: `bytes=${offset}-` } : {};
    const res = await this.send(`${this.repo}/blobs/${digest}`, { headers, signal });
    await this.require(res, `pull blob ${digest}`);
    return res;
  }

  /** True when the registry already has the blob. */
  async hasBlob(digest: string): Promise<boolean> {
    const res = await this.send(`${this.repo}/blobs/${digest}`, { method: "HEAD" });
    if (res.status === 404) return false;
    await this.require(res, `check blob ${digest}`);
    return true;
  }

  /**
   * Uploads a blob as Ollama does: `POST .../blobs/uploads/` for an upload location,
   * `PATCH` the bytes there, then `PUT <location>?digest=` to commit it.
   */
  async upload(digest: string, size: number, body: ReadableStream): Promise<void> {
    const start = await this.send(`${this.repo}/blobs/uploads/`, { method: "POST" });
    await this.require(start, `start upload of ${digest}`);
    let location = this.location(start, `${this.repo}/blobs/uploads/`);
    const patch = await this.send(location, {
      method: "PATCH",
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(size),
        "Content-Range": `0-${Math.max(size - 1, 0)}`,
      },
      body,
      duplex: "half",
    });
    await this.require(patch, `upload ${digest}`);
    location = this.location(patch, location);
    const url = new URL(location);
    url.searchParams.set("digest", digest);
    const put = await this.send(url.toString(), {
      method: "PUT",
      headers: { "Content-Length": "0" },
    });
    await this.require(put, `commit upload of ${digest}`);
  }

  /** Writes the manifest under the name's tag. */
  async putManifest(bytes: Buffer): Promise<void> {
    const res = await this.send(`${this.repo}/manifests/${this.name.tag}`, {
      method: "PUT",
      headers: { "Content-Type": MediaType.manifest },
      body: bytes,
    });
    await this.require(res, "push manifest");
  }

  private location(res: Response, requestUrl: string): string {
    const loc = res.headers.get("location");
    if (!loc) throw new LlmsrvError("internal", "registry answered an upload without a Location");
    return new URL(loc, requestUrl).toString();
  }

  /** Throws for a non-2xx answer, with the registry's own error message when it sent one. */
  private async require(res: Response, what: string): Promise<void> {
    if (res.ok) return;
    const text = await res.text().catch(() => "");
    let message = text.trim() || `HTTP ${res.status}`;
    try {
      const parsed = JSON.parse(text) as { errors?: Array<{ message?: string }> };
      message = parsed.errors?.[0]?.message ?? message;
    } catch {
      // not JSON: keep the text
    }
    // Not our API key's fault: a registry refusal is the pull's failure, not a 401 of ours.
    throw new LlmsrvError("internal", `${what}: ${res.status}: ${message}`);
  }
}
