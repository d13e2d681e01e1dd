// Browser protections: allowed origins, CORS preflight answers, and the DNS-rebinding Host check.
import type { IncomingMessage, ServerResponse } from "node:http";
import { hostname, networkInterfaces } from "node:os";
import { originAllowed } from "../origin-patterns.js";

/**
 * Browser protections, as Ollama has them: a cross-origin request (one with an `Origin`
 * header that is not the server's own) is answered only for allowed origins, and while
 * the server listens on loopback a request whose `Host` is neither loopback, a private
 * address, this machine nor a local name is refused, so a DNS-rebinding page cannot
 * reach it under its own name.
 */

const ALLOW_HEADERS = [
  "Authorization",
  "Content-Type",
  "User-Agent",
  "Accept",
  "X-Requested-With",
  "OpenAI-Beta",
  "X-Stainless-Arch",
  "X-Stainless-Async",
  "X-Stainless-Custom-Poll-Interval",
  "X-Stainless-Helper-Method",
  "X-Stainless-Lang",
  "X-Stainless-Os",
  "X-Stainless-Package-Version",
  "X-Stainless-Poll-Helper",
  "X-Stainless-Retry-Count",
  "X-Stainless-Runtime",
  "X-Stainless-Runtime-Version",
  "X-Stainless-Timeout",
].join(", ");

const ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS";

/** True for loopback literals and `localhost` (the names a loopback listener answers on). */
export function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

function isPrivateOrUnspecified(ip: string): boolean {
  if (ip === "0.0.0.0" || ip === "::") return true;
  const m = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(ip);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  return /^f[cd][0-9a-f]{2}:/i.test(ip); // IPv6 unique local fc00::/7
}

function isLocalInterfaceIp(ip: string): boolean {
  for (const list of Object.values(networkInterfaces())) {
    if (list?.some((a) => a.address.toLowerCase() === ip)) return true;
  }
  return false;
}

/** The host part of a Host header (`name`, `name:port`, `[v6]:port`), lower-cased. */
function hostOnly(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") < 0 ? undefined : h.indexOf("]"));
  const colon = h.lastIndexOf(":");
  return colon >= 0 && h.indexOf(":") === colon ? h.slice(0, colon) : h;
}

/**
 * Whether a loopback listener answers a request with this Host: IP literals that are
 * loopback, private, unspecified or this machine's; `localhost`, this machine's name,
 * and names under `.localhost`, `.local` and `.internal`. An absent Host is allowed.
 */
export function hostAllowed(header: string | undefined): boolean {
  if (header === undefined || header.trim() === "") return true;
  const host = hostOnly(header);
  const isIp = /^[\d.]+$/.test(host) || host.includes(":");
  if (isIp) return isLoopbackName(host) || isPrivateOrUnspecified(host) || isLocalInterfaceIp(host);
  if (host === "localhost" || host === hostname().toLowerCase()) return true;
  return [".localhost", ".local", ".internal"].some((tld) => host.endsWith(tld));
}

/** What the guard needs to know about the server. */
export interface GuardSettings {
  /** The address the server listens on (`LLMSRV_HOST`'s host). */
  readonly listenHost: string;
  /** Allowed origins: the defaults plus `LLMSRV_ORIGINS`. */
  readonly origins: readonly string[];
}

function refuse(res: ServerResponse): false {
  res.writeHead(403, { "Content-Length": 0 }).end();
  return false;
}

/**
 * Applies the host and origin checks to a request. Returns true when the request may go
 * on to the routes; otherwise the response has been written (403, or 204 for a preflight).
 */
export function guardRequest(
  req: IncomingMessage,
  res: ServerResponse,
  settings: GuardSettings,
): boolean {
  const host = req.headers.host;
  if (isLoopbackName(settings.listenHost) && !hostAllowed(host)) return refuse(res);
  const origin = req.headers.origin;
  if (origin === undefined || origin === "") return true;
  // A same-origin request is no cross-site request.
  if (host && (origin === `http://${host}` || origin === `https://${host}`)) return true;
  if (!originAllowed(origin, settings.origins)) return refuse(res);
  const wildcard = settings.origins.includes("*");
  res.setHeader("Access-Control-Allow-Origin", wildcard ? "*" : origin);
  if (!wildcard) res.setHeader("Vary", "Origin");
  if (req.method !== "OPTIONS") return true;
  res.writeHead(204, {
    "Access-Control-Allow-Methods": ALLOW_METHODS,
    "Access-Control-Allow-Headers": ALLOW_HEADERS,
    "Access-Control-Max-Age": "43200",
  });
  res.end();
  return false;
}
