/**
 * Security headers on every response: a Content-Security-Policy that allows no script at all
 * (the pages need none) and only same-origin styles, images and form targets; frame denial;
 * no MIME sniffing; same-origin referrers (the login error page reads the Referer to go Back).
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** Content-Security-Policy of every response. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** Header names and values added to every response. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
});

/** onRequest hook: sets the security headers before any handler runs. */
export async function securityHeadersHook(
  _request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  reply.headers(SECURITY_HEADERS);
}
