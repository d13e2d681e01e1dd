/**
 * HTTP(S) requests to a configured service: its base URL, headers, bearer token (a
 * `token_path` file is read before each request, so a rotated token is picked up), CA and
 * `allow_insecure_tls`, and `response_header_timeout_seconds` as a bound on the wait for
 * the response's headers (the body may take longer, as in Go's transport).
 */
import { readFileSync } from "node:fs";
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  STATUS_CODES,
} from "node:http";
import { request as httpsRequest } from "node:https";
import { rootCertificates } from "node:tls";
import type { ServiceConfig } from "./config-file.js";

/** A finished exchange with a service. */
export interface ServiceResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A response with a status other than the ones a caller accepts. */
export class HttpStatusError extends Error {
  constructor(readonly status: number) {
    super(`server replied with ${STATUS_CODES[status] ?? `HTTP ${status}`}`);
    this.name = "HttpStatusError";
  }
}

/** `<service url>/<path>`, with exactly one slash between them. */
export function serviceUrl(service: ServiceConfig, path: string): string {
  return `${service.url}/${path.replace(/^\/+/, "")}`;
}

function authorization(service: ServiceConfig): string | undefined {
  const bearer = service.bearer;
  if (!bearer) return undefined;
  const token = bearer.tokenPath
    ? readFileSync(bearer.tokenPath, "utf8").trim()
    : (bearer.token ?? "");
  return `${bearer.scheme} ${token}`;
}

/** Sends one request to `path` below the service; rejects on network errors and timeouts. */
export function serviceRequest(
  service: ServiceConfig,
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer;
    /** Aborts the request (the plugin stopping). */
    signal?: AbortSignal;
  } = {},
): Promise<ServiceResponse> {
  const url = serviceUrl(service, path);
  return new Promise((resolve, reject) => {
    let auth: string | undefined;
    try {
      auth = authorization(service);
    } catch (e) {
      reject(new Error(`reading bearer token: ${(e as Error).message}`));
      return;
    }
    const headers: Record<string, string> = { ...service.headers, ...options.headers };
    if (auth) headers.Authorization = auth;
    if (options.body) headers["Content-Length"] = String(options.body.length);
    const method = options.method ?? "GET";
    const secure = url.startsWith("https:");
    const send = secure ? httpsRequest : httpRequest;
    const req = send(url, {
      method,
      headers,
      signal: options.signal,
      ...(secure
        ? {
            ca: service.caCert ? [...rootCertificates, service.caCert] : undefined,
            rejectUnauthorized: !service.allowInsecureTls,
          }
        : {}),
    });
    const timeoutMs = service.responseHeaderTimeoutMs;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            req.destroy(new Error("net/http: timeout awaiting response headers"));
          }, timeoutMs)
        : undefined;
    // Go's client error text: `Get "<url>": <reason>`, wrapped by callers as OPA wraps it.
    const verb = method.charAt(0) + method.slice(1).toLowerCase();
    req.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`${verb} "${url}": ${e.message}`));
    });
    req.on("response", (res: IncomingMessage) => {
      clearTimeout(timer);
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", (e) => reject(new Error(`${verb} "${url}": ${e.message}`)));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.end(options.body);
  });
}
