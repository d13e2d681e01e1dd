/**
 * Telling a browser's navigation (a bookmark, a typed address, a new tab) from an API client's
 * request. Browsers send `Sec-Fetch-Mode: navigate` for these (Chromium, Firefox, Safari since
 * 2023); older ones send no Sec-Fetch headers but ask for HTML in `Accept`. A client that sends
 * `Sec-Fetch-Mode` with any other value (a fetch from a script) is not navigating, whatever it
 * accepts; curl and scripts (an Accept of any type, or none) are not either.
 */
import type { FastifyRequest } from "fastify";

/** True when `request` is a browser loading a page for the user to see. */
export function isNavigation(request: FastifyRequest): boolean {
  const mode = request.headers["sec-fetch-mode"];
  if (typeof mode === "string") return mode.toLowerCase() === "navigate";
  const accept = request.headers.accept;
  return typeof accept === "string" && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}
