/**
 * Cross-site request forgery protection for state-changing requests. A browser tells us where
 * a request comes from: `Sec-Fetch-Site` when it sends it, else `Origin`, else `Referer`.
 * Chromium sends no Sec-Fetch-* headers to a plain-HTTP host name (`http://notes.test`), nor
 * an Origin on a GET, but it does send the other site's Referer (its default policy keeps the
 * origin). Requests marked as cross-site (or same-site from a sibling host) are refused;
 * same-origin form posts pass, and so do non-browser clients that send none of the three (curl
 * with only the spec's fields). `GET /logout` is checked like a POST; `HEAD /logout` changes
 * nothing, so it is not.
 */
import type { FastifyRequest } from "fastify";
import { pathOf } from "../auth/gate.js";
import { NotesError } from "../errors.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/**
 * Safe-method paths that still change state: the spec makes logout a GET, and another site
 * must not be able to sign the user out with a link or an image.
 */
const STATE_CHANGING_GETS = new Set(["/logout"]);

/** The origin part of a URL for messages (a Referer's path and query are none of our logs' business). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "an unparsable URL";
  }
}
/** `none`: the user started the request (address bar, bookmark), not another site. */
const ALLOWED_FETCH_SITES = new Set(["same-origin", "none"]);

/**
 * True when absolute URL `url` points at `host` (a Host header value). Both sides go through
 * the URL parser so a default port written out (`:80`) compares equal to none.
 */
export function isSameHost(url: string, host: string): boolean {
  try {
    const target = new URL(url);
    return target.host === new URL(`${target.protocol}//${host}`).host;
  } catch {
    return false;
  }
}

/** Why a request was refused, or undefined when it may proceed. */
export function crossSiteReason(
  method: string,
  headers: FastifyRequest["headers"],
  host: string,
  path = "",
): string | undefined {
  if (SAFE_METHODS.has(method) && !(method === "GET" && STATE_CHANGING_GETS.has(path))) {
    return undefined;
  }
  const fetchSite = headers["sec-fetch-site"];
  if (typeof fetchSite === "string") {
    return ALLOWED_FETCH_SITES.has(fetchSite) ? undefined : `Sec-Fetch-Site is ${fetchSite}`;
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    return isSameHost(origin, host) ? undefined : `Origin ${origin} is not this host`;
  }
  const referer = headers.referer;
  if (typeof referer !== "string") return undefined;
  return isSameHost(referer, host)
    ? undefined
    : `Referer from ${originOf(referer)} is not this host`;
}

/** onRequest hook: throws `cross_site_request` for a forged state-changing request. */
export async function crossSiteHook(request: FastifyRequest): Promise<void> {
  const reason = crossSiteReason(
    request.method,
    request.headers,
    request.host,
    pathOf(request.url),
  );
  if (reason) {
    request.log.warn({ reason, path: request.url }, "cross-site request refused");
    throw new NotesError("cross_site_request", "Cross-site request refused !!!", {
      cause: reason,
    });
  }
}
