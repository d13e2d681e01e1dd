/**
 * The HTTP client behind `http.send`: one exchange over node:http/https with the request's
 * timeout, TLS settings, optional redirects and retries on network errors. Failures are
 * described in the words of Go's net/http client (`Get "url": dial tcp ...`), which is
 * what OPA reports.
 */
import http from "node:http";
import https from "node:https";
import { rootCertificates } from "node:tls";

/** TLS settings of one request (already read from files and environment variables). */
export interface TlsSettings {
  /** Trusted roots; undefined: the system's. */
  ca?: string[];
  cert?: string;
  key?: string;
  servername?: string;
  insecureSkipVerify: boolean;
}

/** A request ready to go out. */
export interface ClientRequest {
  method: string;
  url: string;
  /** Canonical names (`Content-Type`), in the order given. */
  headers: [string, string][];
  body: string;
  /** Whole exchange, connection to last body byte; 0: none. */
  timeoutMs: number;
  followRedirects: boolean;
  tls: TlsSettings;
  maxRetries: number;
}

/** A response read to its end. */
export interface ClientResponse {
  statusCode: number;
  /** Status line text after the version, e.g. "200 OK" (Go's Response.Status). */
  status: string;
  /** Lower-cased names, every value in order. */
  headers: Map<string, string[]>;
  body: Buffer;
}

/** A failed exchange, with Go's wording. */
export class NetworkError extends Error {
  constructor(
    /** The whole url.Error text: `Get "http://...": <detail>`. */
    message: string,
    /** The text OPA raises for it (timeouts read "Get http://...: request timed out"). */
    readonly raised: string,
  ) {
    super(message);
    this.name = "NetworkError";
  }
}

/** Go's net/http gives up after this many redirects. */
const MAX_REDIRECTS = 10;
const MIN_RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 60_000;

/** Go's url.Error operation name: "Get", "Post", ... */
function operation(method: string): string {
  return method.slice(0, 1).toUpperCase() + method.slice(1).toLowerCase();
}

/** Thrown inside one exchange when its own timeout fires. */
class ExchangeTimeout extends Error {}

/** The detail Go's client would give for a Node socket or TLS error. */
function goDetail(
  e: NodeJS.ErrnoException & { host?: string; address?: string; port?: number },
  url: URL,
): string {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  switch (e.code) {
    case "ECONNREFUSED":
      return `dial tcp ${e.address ?? host}:${e.port ?? port}: connect: connection refused`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `dial tcp: lookup ${host}: no such host`;
    case "ECONNRESET":
      return "EOF";
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
      return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
    case "CERT_HAS_EXPIRED":
      return "tls: failed to verify certificate: x509: certificate has expired or is not yet valid";
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `tls: failed to verify certificate: x509: certificate is not valid for ${host}`;
    default:
      if (e.message === "socket hang up") return "EOF";
      return e.message;
  }
}

function networkError(method: string, url: string, detail: string): NetworkError {
  const op = operation(method);
  return new NetworkError(
    `${op} ${JSON.stringify(url)}: ${detail}`,
    `${op} ${JSON.stringify(url)}: ${detail}`,
  );
}

function timeoutError(method: string, url: string): NetworkError {
  const op = operation(method);
  return new NetworkError(
    `${op} ${JSON.stringify(url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    `${op} ${url}: request timed out`,
  );
}

/**
 * `unix://host/path?socket=%2Fpath%2Fto.sock`: the request goes to a Unix domain socket,
 * the URL without the socket parameter (as OPA rewrites it).
 */
function unixSocket(url: URL): { socketPath: string; url: URL } | undefined {
  if (url.protocol !== "unix:" || url.search === "") return undefined;
  const socketPath = url.searchParams.get("socket");
  if (!socketPath) return undefined;
  const rewritten = new URL(url.href.replace(/^unix:/, "http:"));
  rewritten.searchParams.delete("socket");
  return { socketPath, url: rewritten };
}

/** One exchange, no redirects, no retries. */
function exchange(
  req: ClientRequest,
  url: URL,
  method: string,
  body: string,
  signal: AbortSignal,
): Promise<ClientResponse> {
  return new Promise((resolve, reject) => {
    const socket = unixSocket(url);
    const target = socket?.url ?? url;
    const secure = target.protocol === "https:";
    if (!secure && target.protocol !== "http:") {
      reject(
        new Error(`unsupported protocol scheme ${JSON.stringify(url.protocol.replace(/:$/, ""))}`),
      );
      return;
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of req.headers) {
      const prev = headers[name];
      headers[name] =
        prev === undefined ? value : [...(Array.isArray(prev) ? prev : [String(prev)]), value];
    }
    if (body.length > 0) headers["Content-Length"] = Buffer.byteLength(body);
    const options: https.RequestOptions = {
      method,
      headers,
      signal,
      // Each request has its own TLS settings: no pooled connection may leak between them.
      agent: false,
    };
    if (socket) options.socketPath = socket.socketPath;
    if (secure) {
      const tls = req.tls;
      if (tls.ca) options.ca = tls.ca;
      if (tls.cert) options.cert = tls.cert;
      if (tls.key) options.key = tls.key;
      if (tls.servername) options.servername = tls.servername;
      options.rejectUnauthorized = !tls.insecureSkipVerify;
    }
    const client = secure ? https : http;
    let timer: NodeJS.Timeout | undefined;
    const outgoing = client.request(target, options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", fail);
      res.on("end", () => {
        clearTimeout(timer);
        const headersOut = new Map<string, string[]>();
        for (const [name, values] of Object.entries(res.headersDistinct)) {
          if (values) headersOut.set(name.toLowerCase(), values);
        }
        resolve({
          statusCode: res.statusCode ?? 0,
          status: `${res.statusCode} ${res.statusMessage ?? ""}`,
          headers: headersOut,
          body: Buffer.concat(chunks),
        });
      });
    });
    function fail(e: unknown): void {
      clearTimeout(timer);
      reject(e);
    }
    outgoing.on("error", fail);
    if (req.timeoutMs > 0) {
      timer = setTimeout(() => outgoing.destroy(new ExchangeTimeout()), req.timeoutMs);
    }
    outgoing.end(body.length > 0 ? body : undefined);
  });
}

/** The request a redirect leads to (Go's rules: 301/302/303 turn into GET without body). */
function redirected(
  status: number,
  method: string,
  body: string,
): { method: string; body: string } {
  if (status === 307 || status === 308) return { method, body };
  if ((status === 301 || status === 302) && method !== "POST") return { method, body: "" };
  return { method: method === "HEAD" ? "HEAD" : "GET", body: "" };
}

/** One request with redirects followed when asked for. */
async function send(req: ClientRequest, signal: AbortSignal): Promise<ClientResponse> {
  let url = new URL(req.url);
  let { method, body } = req;
  const original = url.host;
  for (let hops = 0; ; hops++) {
    const sent =
      url.host === original
        ? req
        : { ...req, headers: req.headers.filter(([n]) => n !== "Authorization" && n !== "Cookie") };
    const res = await exchange(sent, url, method, body, signal);
    const location = res.headers.get("location")?.[0];
    if (
      !req.followRedirects ||
      location === undefined ||
      ![301, 302, 303, 307, 308].includes(res.statusCode)
    ) {
      return res;
    }
    if (hops + 1 >= MAX_REDIRECTS) throw new Error("stopped after 10 redirects");
    url = new URL(location, url);
    ({ method, body } = redirected(res.statusCode, method, body));
  }
}

/** Go's default backoff: exponential with factor 1.6 and 20% jitter, capped. */
function retryDelay(attempt: number): number {
  const base = MIN_RETRY_DELAY_MS * 1.6 ** attempt;
  const jittered = base * (1 + 0.2 * (Math.random() * 2 - 1));
  return Math.min(MAX_RETRY_DELAY_MS, jittered);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Performs `req`: retries network errors up to `maxRetries` times with backoff. Rejects with
 * NetworkError (Go's url.Error text) for a failed exchange, and with the caller's abort
 * reason when `signal` fires.
 */
export async function performRequest(
  req: ClientRequest,
  signal: AbortSignal,
): Promise<ClientResponse> {
  for (let attempt = 0; ; attempt++) {
    let err: NetworkError;
    try {
      return await send(req, signal);
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      if (e instanceof ExchangeTimeout) err = timeoutError(req.method, req.url);
      else if (e instanceof Error)
        err = networkError(req.method, req.url, goDetail(e, new URL(req.url)));
      else throw e;
    }
    if (attempt >= req.maxRetries) throw err;
    await sleep(retryDelay(attempt), signal);
  }
}

/** The system's trusted roots, for `tls_use_system_certs` together with extra CAs. */
export function systemRoots(): string[] {
  return [...rootCertificates];
}
