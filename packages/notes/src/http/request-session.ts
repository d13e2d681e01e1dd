/**
 * Attaches the verified session (or undefined) to every request, and writes or clears the
 * session cookie. The cookie is marked Secure when the request came over TLS. A session counts
 * only while its version is the user's current one in the database: logout moves the version
 * on, so a copy of the cookie taken before is refused afterwards.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { readCookie, SESSION_COOKIE, type Session, type SessionCodec } from "../auth/session.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The verified session; undefined when absent, tampered or expired. */
    session: Session | undefined;
    /**
     * Without a session: whom the browser's signed cookie names, when that session has ended
     * (expired, or logged out elsewhere). Grants nothing; only lets a typed note be kept.
     */
    endedSessionUser: string | undefined;
  }
}

/** The per-user session versions in storage (`UserRepo` provides them). */
export interface SessionVersions {
  /** The current version, or undefined when the user does not exist (any more). */
  sessionVersion(email: string): Promise<number | undefined>;
  /** Ends every session issued so far for the user. */
  bumpSessionVersion(email: string): Promise<void>;
}

/** onRequest hook factory: reads and verifies the session cookie and its version. */
export function sessionHook(codec: SessionCodec, versions: SessionVersions) {
  return async function readSession(request: FastifyRequest): Promise<void> {
    const cookie = readCookie(request.headers.cookie, SESSION_COOKIE);
    const session = codec.read(cookie);
    const current = session && (await versions.sessionVersion(session.logged_user_id));
    request.session = session && current === session.ver ? session : undefined;
    if (!request.session && cookie)
      request.endedSessionUser = codec.readSigned(cookie)?.logged_user_id;
  };
}

/** True when the client reached us over TLS (directly, or via a trusted proxy). */
export function overTls(request: FastifyRequest): boolean {
  return request.protocol === "https";
}

/** Starts a fresh session for `email` on this response (a new session id every login). */
export async function startSession(
  codec: SessionCodec,
  versions: SessionVersions,
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
): Promise<void> {
  const version = (await versions.sessionVersion(email)) ?? 0;
  reply.header("set-cookie", codec.setCookie(codec.issue(email, version), overTls(request)));
}

/** Ends the user's sessions server-side and removes the session cookie on this response. */
export async function endSession(
  codec: SessionCodec,
  versions: SessionVersions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  if (request.session) await versions.bumpSessionVersion(request.session.logged_user_id);
  reply.header("set-cookie", codec.clearCookie(overTls(request)));
}
