/**
 * The signed session cookie. Its value is `base64url(JSON payload) "." base64url(HMAC-SHA256)`
 * keyed with SESSION_SECRET; the payload holds `logged_user_id` (the email), the user's session
 * version when it was issued (checked against the database on each request, so logout ends it),
 * a random session id (a fresh one on every login) and the issue time. A cookie whose signature, shape or age
 * is wrong reads as no session at all.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Name of the session cookie. */
export const SESSION_COOKIE = "notes_session";

/** What a session holds. */
export interface Session {
  /** The signed-in user's email. */
  readonly logged_user_id: string;
  /** The user's session version at login; a logout moves it on and this session ends. */
  readonly ver: number;
  /** Random id of this session. */
  readonly sid: string;
  /** Issue time, seconds since the epoch. */
  readonly iat: number;
}

/** Signs and verifies session cookies and writes their Set-Cookie headers. */
export interface SessionCodec {
  /** Starts a new session for `email` at session version `version`; returns the cookie value. */
  issue(email: string, version?: number): string;
  /** The session in a cookie value, or undefined when it is tampered, malformed or expired. */
  read(value: string | undefined): Session | undefined;
  /**
   * The session in a cookie value we signed, however old: who the browser was signed in as.
   * Only for keeping that user's typed note when the session has ended, never for access.
   */
  readSigned(value: string | undefined): Session | undefined;
  /** Set-Cookie header that stores `value`. */
  setCookie(value: string, secure: boolean): string;
  /** Set-Cookie header that removes the session cookie. */
  clearCookie(secure: boolean): string;
}

/** Options of the session codec. */
export interface SessionOptions {
  readonly secret: string;
  readonly maxAgeSeconds: number;
  /**
   * How long the browser keeps the cookie; longer than the session (never shorter), so a note
   * sent just after the session ended still says whose it is. The age check is ours.
   */
  readonly cookieMaxAgeSeconds?: number;
  /** Clock in milliseconds; tests move it. */
  readonly now?: () => number;
}

function isSession(value: unknown): value is Session {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.logged_user_id === "string" &&
    v.logged_user_id !== "" &&
    typeof v.ver === "number" &&
    typeof v.sid === "string" &&
    typeof v.iat === "number"
  );
}

/** Creates a codec bound to one secret. */
export function createSessionCodec(options: SessionOptions): SessionCodec {
  const now = options.now ?? Date.now;
  const sign = (payload: string) =>
    createHmac("sha256", options.secret).update(payload).digest("base64url");
  const attributes = (secure: boolean) =>
    `Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;

  /** The session in a cookie value whose signature and shape are right, whatever its age. */
  function verified(value: string | undefined): Session | undefined {
    if (!value) return undefined;
    const dot = value.indexOf(".");
    if (dot <= 0) return undefined;
    const payload = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1), "base64url");
    const expected = Buffer.from(sign(payload), "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let session: unknown;
    try {
      session = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    } catch {
      return undefined;
    }
    return isSession(session) ? session : undefined;
  }

  return {
    issue(email, version = 0) {
      const session: Session = {
        logged_user_id: email,
        ver: version,
        sid: randomBytes(16).toString("base64url"),
        iat: Math.floor(now() / 1000),
      };
      const payload = Buffer.from(JSON.stringify(session)).toString("base64url");
      return `${payload}.${sign(payload)}`;
    },
    read(value) {
      const session = verified(value);
      if (!session) return undefined;
      const age = Math.floor(now() / 1000) - session.iat;
      if (age < 0 || age > options.maxAgeSeconds) return undefined;
      return session;
    },
    readSigned: verified,
    setCookie(value, secure) {
      const maxAge = Math.max(options.maxAgeSeconds, options.cookieMaxAgeSeconds ?? 0);
      return `${SESSION_COOKIE}=${value}; Max-Age=${maxAge}; ${attributes(secure)}`;
    },
    clearCookie(secure) {
      return `${SESSION_COOKIE}=; Max-Age=0; ${attributes(secure)}`;
    },
  };
}

/** The value of cookie `name` in a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
