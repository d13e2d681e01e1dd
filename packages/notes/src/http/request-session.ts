/**
 * Attaches the verified session (or undefined) to every request, and writes or clears the
 * session cookie. The cookie is marked Secure when the request came over TLS.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { readCookie, SESSION_COOKIE, type Session, type SessionCodec } from "../auth/session.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The verified session; undefined when absent, tampered or expired. */
    session: Session | undefined;
  }
}

/** onRequest hook factory: reads and verifies the session cookie. */
export function sessionHook(codec: SessionCodec) {
  return async function readSession(request: FastifyRequest): Promise<void> {
    request.session = codec.read(readCookie(request.headers.cookie, SESSION_COOKIE));
  };
}

/** True when the client reached us over TLS (directly, or via a trusted proxy). */
export function overTls(request: FastifyRequest): boolean {
  return request.protocol === "https";
}

/** Starts a fresh session for `email` on this response (a new session id every login). */
export function startSession(
  codec: SessionCodec,
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
): void {
  reply.header("set-cookie", codec.setCookie(codec.issue(email), overTls(request)));
}

/** Removes the session cookie on this response. */
export function endSession(
  codec: SessionCodec,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.header("set-cookie", codec.clearCookie(overTls(request)));
}
