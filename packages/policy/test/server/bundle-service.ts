/**
 * A bundle service for tests: a real node:http server that serves bundles the test builds,
 * with ETags, an optional bearer token, and switches that make it fail (500), hang (no
 * response headers) or serve bytes that are not a bundle. It also receives status reports.
 * And `startServer`, which runs `rego run --server` in-process with a configuration file.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import type { PolicyIo } from "../../src/cli/cli-io.js";
import { main } from "../../src/cli/main.js";
import { writeBundle } from "../../src/loader/bundle.js";
import { writeTar } from "../../src/loader/tar.js";
import { fromJSON } from "../../src/value/value.js";
import { listeningUrl, startRun } from "../cli/cli-harness.js";

/** A bundle with one policy and data (OPA's layout, roots [""]). */
export function simpleBundle(revision: string, source: string, data: unknown = {}): Buffer {
  return writeBundle({
    modules: [{ path: "policy.rego", source }],
    data: fromJSON(data),
    revision,
  });
}

/** A bundle from raw files (path → text) and a manifest object. */
export function bundleFromFiles(files: Record<string, string>, manifest?: object): Buffer {
  const entries = Object.entries(files).map(([name, text]) => ({
    name: `/${name}`,
    content: Buffer.from(text),
  }));
  if (manifest)
    entries.push({ name: "/.manifest", content: Buffer.from(JSON.stringify(manifest)) });
  return gzipSync(writeTar(entries));
}

/** What a test sees of one request the service received. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
}

export type ServiceMode = "ok" | "fail" | "hang";

/** The service; `set` changes what a path serves (a new ETag each time). */
export class BundleService {
  readonly requests: SeenRequest[] = [];
  readonly statusReports: { path: string; body: Record<string, unknown> }[] = [];
  mode: ServiceMode = "ok";
  /** When set, requests without `Authorization: Bearer <token>` get 401. */
  token?: string;
  /**
   * Answer as a long-polling service (OPA's content type); a request whose ETag is current
   * and that says `Prefer: wait=<s>` is held until the bundle changes (or the wait ends).
   */
  longPoll = false;
  private readonly held = new Set<() => void>();
  private readonly served = new Map<string, { body: Buffer; etag: string }>();
  private version = 0;
  private server?: Server;
  private readonly hanging = new Set<() => void>();
  port = 0;

  /** The ETag `path` is served with now. */
  etagOf(path: string): string | undefined {
    return this.served.get(path)?.etag;
  }

  set(path: string, body: Buffer): void {
    this.version++;
    this.served.set(path, { body, etag: `"v${this.version}"` });
    const waiting = [...this.held];
    this.held.clear();
    for (const wake of waiting) wake();
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Listens on `port` (0: any free port, kept for later restarts). */
  async listen(port = this.port): Promise<void> {
    const server = createServer((req, res) => {
      const path = (req.url ?? "/").split("?")[0] as string;
      const seen: SeenRequest = { method: req.method ?? "", path, headers: req.headers, status: 0 };
      this.requests.push(seen);
      const answer = (status: number, body?: Buffer, headers: Record<string, string> = {}) => {
        seen.status = status;
        res.writeHead(status, headers);
        res.end(body);
      };
      if (this.mode === "hang") {
        this.hanging.add(() => res.destroy());
        return;
      }
      if (this.token !== undefined && req.headers.authorization !== `Bearer ${this.token}`) {
        answer(401);
        return;
      }
      if (this.mode === "fail") {
        answer(500);
        return;
      }
      if (req.method === "POST" && path.startsWith("/status")) {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          this.statusReports.push({ path, body: JSON.parse(Buffer.concat(chunks).toString()) });
          answer(200);
        });
        return;
      }
      const type = this.longPoll ? "application/vnd.openpolicyagent.bundles" : "application/gzip";
      const reply = () => {
        const bundle = this.served.get(path);
        if (!bundle) answer(404);
        else if (req.headers["if-none-match"] === bundle.etag)
          answer(304, undefined, { "content-type": type });
        else answer(200, bundle.body, { etag: bundle.etag, "content-type": type });
      };
      const wait = /wait=(\d+)/.exec(String(req.headers.prefer ?? ""));
      const current = this.served.get(path);
      if (this.longPoll && wait && current && req.headers["if-none-match"] === current.etag) {
        let timer: NodeJS.Timeout | undefined;
        const wake = () => {
          clearTimeout(timer);
          this.held.delete(wake);
          reply();
        };
        timer = setTimeout(wake, Number(wait[1]) * 1000);
        this.held.add(wake);
        this.hanging.add(() => {
          clearTimeout(timer);
          res.destroy();
        });
        return;
      }
      reply();
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening (requests left hanging are cut). */
  async close(): Promise<void> {
    for (const cut of this.hanging) cut();
    this.hanging.clear();
    this.held.clear();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A running `rego run --server`. */
export interface RunningRego {
  url: string;
  out: { stdout: string; stderr: string };
  stop(): Promise<number>;
}

/** Starts `rego run --server --addr 127.0.0.1:0 <args>`; rejects with stderr if it exits. */
export async function startServer(args: string[]): Promise<RunningRego> {
  const run = startRun(["--server", "--addr", "127.0.0.1:0", ...args], { LOG_FORMAT: "json" });
  return {
    url: await listeningUrl(run),
    out: run.out,
    stop: () => {
      run.stop();
      return run.done;
    },
  };
}

/** Runs `rego run --server <args>` expecting it to refuse to start. */
export async function failedStart(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const io: PolicyIo = {
    stdout: { write: () => {} },
    stderr: {
      write: (t: string) => {
        stderr += t;
      },
    },
    env: {},
    readStdin: async () => "",
    signal: AbortSignal.abort(),
  };
  const code = await main(["run", "--server", "--addr", "127.0.0.1:0", ...args], io);
  return { code, stderr };
}

/**
 * Polls `check` until it returns a value other than undefined. No timing is asserted: the
 * bound only turns a hang into a failure that says what was awaited.
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const giveUp = Date.now() + 30_000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A parsed JSON answer, read loosely: tests reach into it key by key. */
export type Loose = { readonly [key: string]: Loose };

/** GET a JSON answer: status and parsed body. */
export async function getJson(url: string): Promise<{ status: number; body: Loose }> {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Loose) : {} };
}
