/**
 * One upload: POST a gzip-compressed JSON array of events to `<service url><resource>` with
 * `Content-Encoding: gzip` and `Content-Type: application/json`, as OPA's decision log
 * service API expects. Any status but 2xx is a failure.
 */
import { request as httpRequest, STATUS_CODES } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LogService } from "./log-service.js";

/** OPA's default bound on waiting for a service's response headers. */
const DEFAULT_RESPONSE_HEADER_TIMEOUT_MS = 10_000;

/** An upload the service answered with a status other than 2xx. */
export class UploadHTTPError extends Error {
  constructor(readonly statusCode: number) {
    super(
      `log upload failed, server replied with HTTP ${statusCode} ${STATUS_CODES[statusCode] ?? ""}`.trimEnd(),
    );
    this.name = "UploadHTTPError";
  }
}

/** The service URL and resource joined by exactly one slash, as OPA's REST client does. */
export function uploadURL(service: LogService, resource: string): URL {
  return new URL(`${service.url.replace(/\/+$/, "")}/${resource.replace(/^\/+/, "")}`);
}

function requestHeaders(service: LogService, body: Buffer): Record<string, string> {
  const headers: Record<string, string> = { ...service.headers };
  headers["Content-Type"] = "application/json";
  headers["Content-Encoding"] = "gzip";
  headers["Content-Length"] = String(body.length);
  if (service.bearerToken !== undefined) {
    headers.Authorization = `${service.bearerScheme ?? "Bearer"} ${service.bearerToken}`;
  }
  return headers;
}

/** Sends one chunk; rejects with UploadHTTPError or a "log upload failed: ..." Error. */
export function uploadChunk(service: LogService, resource: string, body: Buffer): Promise<void> {
  const url = uploadURL(service, resource);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  const timeoutMs = service.responseHeaderTimeoutMs ?? DEFAULT_RESPONSE_HEADER_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: requestHeaders(service, body), agent: service.agent },
      (res) => {
        req.setTimeout(0);
        // Drain the answer so that the connection can be reused.
        res.resume();
        res.on("error", () => {});
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else reject(new UploadHTTPError(status));
      },
    );
    req.setTimeout(timeoutMs, () => {
      req.destroy(new Error(`no response within ${timeoutMs} ms`));
    });
    req.on("error", (e) => reject(new Error(`log upload failed: ${e.message}`)));
    req.end(body);
  });
}
