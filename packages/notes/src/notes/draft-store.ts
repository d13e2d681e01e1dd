/**
 * Notes typed while the session ran out. `POST /notes` with an ended session (a cookie we
 * signed, expired or logged out) keeps the note here for its owner, under a random id that only
 * that browser holds (cookie `notes_draft`); after the owner logs in again the notes page puts
 * it back in the form, once. A draft is shown only when both the browser's id and the signed-in
 * user match, so it never reaches another user, nor another browser of the same user.
 * Bounded: one draft per user, at most `maxDrafts` in all (the oldest go first), each expiring
 * after `maxAgeSeconds`; kept in memory, so a restart drops them.
 */
import { randomBytes } from "node:crypto";
import { readCookie } from "../auth/session.js";

/** Name of the cookie that holds a draft's id. */
export const DRAFT_COOKIE = "notes_draft";

interface Draft {
  readonly id: string;
  readonly body: string;
  readonly expiresAt: number;
}

/** Options of the draft store. */
export interface DraftOptions {
  /** How long a draft waits for its owner to log in again, in seconds. */
  readonly maxAgeSeconds: number;
  /** Drafts kept in all; 0 keeps none. */
  readonly maxDrafts: number;
  /** Clock in milliseconds; tests move it. */
  readonly now?: () => number;
}

/** Keeps and hands back drafts. */
export interface DraftStore {
  /** True when drafts are kept at all (`maxDrafts` > 0). */
  readonly enabled: boolean;
  /** Keeps `body` for `owner`, replacing an earlier draft; returns the Set-Cookie header. */
  keep(owner: string, body: string, secure: boolean): string;
  /**
   * Takes the draft that the Cookie header points at if `owner` wrote it: the body, and the
   * Set-Cookie header that removes the cookie. Undefined when there is no cookie. A draft of
   * another user stays where it is, unseen; the cookie is removed either way.
   */
  take(cookieHeader: string | undefined, owner: string, secure: boolean): Taken | undefined;
  /** True when the Cookie header points at a draft that is still waiting. */
  waiting(cookieHeader: string | undefined): boolean;
}

/** What `take` found. */
export interface Taken {
  readonly body: string | undefined;
  readonly clearCookie: string;
}

/** Creates an in-memory draft store. */
export function createDraftStore(options: DraftOptions): DraftStore {
  const now = options.now ?? Date.now;
  const byOwner = new Map<string, Draft>();
  const attributes = (secure: boolean) =>
    `Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  const clear = (secure: boolean) => `${DRAFT_COOKIE}=; Max-Age=0; ${attributes(secure)}`;

  function dropExpired(): void {
    const at = now();
    for (const [owner, draft] of byOwner) if (draft.expiresAt <= at) byOwner.delete(owner);
  }

  function findById(id: string | undefined): [string, Draft] | undefined {
    if (!id) return undefined;
    for (const entry of byOwner) if (entry[1].id === id) return entry;
    return undefined;
  }

  return {
    enabled: options.maxDrafts > 0,
    keep(owner, body, secure) {
      dropExpired();
      byOwner.delete(owner);
      // Maps iterate in insertion order: the first entry is the oldest draft.
      while (byOwner.size >= options.maxDrafts && byOwner.size > 0) {
        byOwner.delete(byOwner.keys().next().value as string);
      }
      const id = randomBytes(18).toString("base64url");
      byOwner.set(owner, { id, body, expiresAt: now() + options.maxAgeSeconds * 1000 });
      return `${DRAFT_COOKIE}=${id}; Max-Age=${options.maxAgeSeconds}; ${attributes(secure)}`;
    },
    take(cookieHeader, owner, secure) {
      const id = readCookie(cookieHeader, DRAFT_COOKIE);
      if (id === undefined) return undefined;
      dropExpired();
      const draft = byOwner.get(owner);
      if (!draft || draft.id !== id) return { body: undefined, clearCookie: clear(secure) };
      byOwner.delete(owner);
      return { body: draft.body, clearCookie: clear(secure) };
    },
    waiting(cookieHeader) {
      dropExpired();
      return findById(readCookie(cookieHeader, DRAFT_COOKIE)) !== undefined;
    },
  };
}
