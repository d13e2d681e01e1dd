import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small real registry for tests: the Docker registry v2 routes Ollama uses for pull and
 * push, in memory, with switches to make a download fail the ways networks and registries
 * fail (a connection cut mid-blob, bytes that do not match their digest).
 */

/** What one request asked for (for assertions). */
export interface RegistryRequest {
  method: string;
  path: string;
  range?: string;
  authorization?: string;
}

const digestOf = (b: Buffer) => `sha256:${createHash("sha256").update(b).digest("hex")}`;

export class TestRegistry {
  /** `ns/model:tag` → manifest bytes. */
  readonly manifests = new Map<string, Buffer>();
  /** digest → bytes (shared by every repository, as a real registry's storage is). */
  readonly blobs = new Map<string, Buffer>();
  readonly requests: RegistryRequest[] = [];
  /** Digests whose next GET is cut after this many bytes (once, or `cutTimes` GETs). */
  readonly cutAfter = new Map<string, number>();
  /** How many GETs of a digest in `cutAfter` are cut (default 1). */
  readonly cutTimes = new Map<string, number>();
  /** Answer every blob GET in full with 200, as a registry without Range support does. */
  ignoreRange = false;
  /** Digests served with these bytes instead of their own. */
  readonly corrupt = new Map<string, Buffer>();
  /** Bytes sent per blob digest over all GETs. */
  readonly bytesSent = new Map<string, number>();
  private readonly uploads = new Map<string, Buffer[]>();
  private server!: Server;
  url = "";

  /**
   * `token`: every request must carry it as a bearer token. `challenge`: requests without
   * the issued token get 401 with a Docker-style Bearer challenge pointing at `/token`.
   */
  constructor(
    private readonly token?: string,
    private readonly challenge = false,
  ) {}

  /** The token `/token` issues for a scope. */
  static issuedFor(scope: string): string {
    return `issued-${createHash("sha256").update(scope).digest("hex").slice(0, 16)}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e) => res.writeHead(500).end(String(e)));
    });
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  /** Adds a manifest (and its blobs) under `ns/model:tag`; returns the manifest bytes. */
  publish(repo: string, manifest: Buffer, blobs: Buffer[]): void {
    for (const b of blobs) this.blobs.set(digestOf(b), b);
    this.manifests.set(repo, manifest);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    this.requests.push({
      method: req.method ?? "GET",
      path: url.pathname,
      range: req.headers.range,
      authorization: req.headers.authorization,
    });
    if (this.challenge) {
      if (url.pathname === "/token") {
        const scope = url.searchParams.get("scope") ?? "";
        return json(res, 200, { token: TestRegistry.issuedFor(scope) });
      }
      const repo = /^\/v2\/([^/]+\/[^/]+)\//.exec(url.pathname)?.[1] ?? "";
      const scope = `repository:${repo}:pull`;
      const auth = req.headers.authorization ?? "";
      if (
        auth !== `Bearer ${TestRegistry.issuedFor(scope)}` &&
        !url.pathname.startsWith("/upload/")
      ) {
        res.writeHead(401, {
          "WWW-Authenticate": `Bearer realm="${this.url}/token",service="test-registry",scope="${scope}"`,
        });
        res.end();
        return;
      }
    } else if (this.token && req.headers.authorization !== `Bearer ${this.token}`) {
      return json(res, 401, {
        errors: [{ code: "UNAUTHORIZED", message: "authentication required" }],
      });
    }
    const body = await readAll(req);
    const upload = /^\/upload\/([0-9a-f]+)$/.exec(url.pathname);
    if (upload) return this.onUpload(req, res, url, upload[1] as string, body);
    const m = /^\/v2\/([^/]+)\/([^/]+)\/(manifests|blobs)\/(.+)$/.exec(url.pathname);
    if (!m) return json(res, 404, { errors: [{ code: "NOT_FOUND", message: "not found" }] });
    const [, ns, model, kind, ref] = m as unknown as [string, string, string, string, string];
    if (kind === "manifests") return this.onManifest(req, res, `${ns}/${model}:${ref}`, body);
    if (ref === "uploads/" || ref === "uploads") {
      const id = randomBytes(8).toString("hex");
      this.uploads.set(id, []);
      res.writeHead(202, { Location: `/upload/${id}` }).end();
      return;
    }
    return this.onBlob(req, res, ref);
  }

  private onManifest(req: IncomingMessage, res: ServerResponse, key: string, body: Buffer) {
    if (req.method === "PUT") {
      this.manifests.set(key, body);
      res.writeHead(201).end();
      return;
    }
    const manifest = this.manifests.get(key);
    if (!manifest)
      return json(res, 404, {
        errors: [{ code: "MANIFEST_UNKNOWN", message: `manifest unknown: ${key}` }],
      });
    res.writeHead(200, {
      "Content-Type": "application/vnd.docker.distribution.manifest.v2+json",
      "Content-Length": manifest.length,
    });
    res.end(req.method === "HEAD" ? undefined : manifest);
  }

  private onBlob(req: IncomingMessage, res: ServerResponse, digest: string) {
    const stored = this.blobs.get(digest);
    if (!stored)
      return json(res, 404, { errors: [{ code: "BLOB_UNKNOWN", message: "blob unknown" }] });
    if (req.method === "HEAD") {
      res.writeHead(200, { "Content-Length": stored.length }).end();
      return;
    }
    const bytes = this.corrupt.get(digest) ?? stored;
    const range = this.ignoreRange ? null : /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const start = range ? Number(range[1]) : 0;
    const part = bytes.subarray(start);
    res.writeHead(range ? 206 : 200, {
      "Content-Length": part.length,
      ...(range ? { "Content-Range": `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {}),
    });
    const cut = this.cutAfter.get(digest);
    if (cut !== undefined && cut < part.length) {
      const times = this.cutTimes.get(digest) ?? 1;
      if (times <= 1) this.cutAfter.delete(digest);
      this.cutTimes.set(digest, times - 1);
      this.count(digest, cut);
      // End the connection (FIN after the bytes) a moment after they are sent, not at once:
      // a stream that errors drops the chunks its reader has not taken yet, and the test
      // needs the client to have kept some bytes to resume from.
      res.write(part.subarray(0, cut), () => setTimeout(() => res.socket?.end(), 300));
      return;
    }
    this.count(digest, part.length);
    res.end(part);
  }

  private onUpload(req: IncomingMessage, res: ServerResponse, url: URL, id: string, body: Buffer) {
    const chunks = this.uploads.get(id);
    if (!chunks)
      return json(res, 404, { errors: [{ code: "BLOB_UPLOAD_UNKNOWN", message: "no upload" }] });
    chunks.push(body);
    if (req.method === "PATCH") {
      res.writeHead(202, { Location: `/upload/${id}` }).end();
      return;
    }
    const all = Buffer.concat(chunks);
    const claimed = url.searchParams.get("digest");
    if (claimed !== digestOf(all))
      return json(res, 400, { errors: [{ code: "DIGEST_INVALID", message: "digest invalid" }] });
    this.blobs.set(claimed, all);
    this.uploads.delete(id);
    res.writeHead(201).end();
  }

  private count(digest: string, n: number): void {
    this.bytesSent.set(digest, (this.bytesSent.get(digest) ?? 0) + n);
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(value));
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Builds an Ollama manifest over a model blob and a params blob; returns all the bytes. */
export function buildModel(
  gguf: Buffer,
  params: Record<string, unknown>,
): { manifest: Buffer; blobs: Buffer[]; modelDigest: string } {
  const paramsBytes = Buffer.from(JSON.stringify(params));
  const config = Buffer.from(JSON.stringify({ model_format: "gguf", model_family: "llama" }));
  const layer = (mediaType: string, b: Buffer) => ({
    mediaType,
    digest: digestOf(b),
    size: b.length,
  });
  const manifest = {
    schemaVersion: 2,
    mediaType: "application/vnd.docker.distribution.manifest.v2+json",
    config: layer("application/vnd.docker.container.image.v1+json", config),
    layers: [
      layer("application/vnd.ollama.image.model", gguf),
      layer("application/vnd.ollama.image.params", paramsBytes),
    ],
  };
  return {
    manifest: Buffer.from(JSON.stringify(manifest)),
    blobs: [gguf, paramsBytes, config],
    modelDigest: digestOf(gguf),
  };
}
