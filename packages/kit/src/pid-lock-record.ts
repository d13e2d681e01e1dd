/**
 * The line a pid lock file holds, and what a taker makes of a line it finds. A record is
 * `<pid> <start> <boot> <nonce>`: the holder's identity (`-` where /proc gave none) and a random
 * nonce, so that no two lock files ever hold the same text and a taker can tell "the file I judged
 * stale" from a newer one that replaced it. Files of older versions hold only `<pid>`.
 */
import { randomBytes } from "node:crypto";
import { hasEnded, ownIdentity, type ProcessIdentity } from "./process-identity.js";

/**
 * How long a lock file without a readable record counts as still being written. This version
 * writes the record before the file becomes visible, so such a file comes from an older version
 * (which created the file empty and wrote its pid after) or from a filesystem without hard links
 * (see publishFile). Either writer fills it within moments; a file that stays unreadable longer
 * is left over from a crash and is stale.
 */
export const unreadableGraceMs = 1000;

/** A fresh record for this process, unique to this call. */
export function newRecord(): string {
  const me = ownIdentity();
  const nonce = randomBytes(8).toString("hex");
  return `${me.pid} ${me.start ?? "-"} ${me.boot ?? "-"} ${nonce}\n`;
}

/** A lock file's record as read: the full form, an older version's bare pid, or neither. */
type ParsedRecord =
  | { readonly kind: "full"; readonly who: ProcessIdentity }
  | { readonly kind: "bare"; readonly pid: number }
  | { readonly kind: "unreadable" };

/** A pid as recorded: a positive decimal integer. */
function pidOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
  const pid = Number(text);
  return pid > 0 && pid <= 2 ** 31 ? pid : undefined;
}

/** Parses a lock file's text. */
export function parseRecord(text: string): ParsedRecord {
  const parts = text.trim().split(" ");
  const pid = pidOf(parts[0]);
  if (pid === undefined) return { kind: "unreadable" };
  if (parts.length === 1) return { kind: "bare", pid };
  const [, start, boot, nonce] = parts;
  if (parts.length !== 4 || !start || !boot || !/^[0-9a-f]+$/.test(nonce ?? "")) {
    return { kind: "unreadable" };
  }
  const who = { pid, ...(start !== "-" && { start }), ...(boot !== "-" && { boot }) };
  return { kind: "full", who };
}

/** What a taker should do about a lock file it found: refuse, wait a moment, or take it over. */
export type Verdict =
  | { readonly kind: "held"; readonly holder: number }
  | { readonly kind: "settling" }
  | { readonly kind: "stale" };

/** Judges the record found in a lock file last modified at `mtimeMs`. */
export function judgeRecord(text: string, mtimeMs: number): Verdict {
  const record = parseRecord(text);
  switch (record.kind) {
    case "unreadable":
      // |age|: a clock step back must not keep a crashed file young for ever.
      return Math.abs(Date.now() - mtimeMs) < unreadableGraceMs
        ? { kind: "settling" }
        : { kind: "stale" };
    case "bare":
      // This version never writes a bare pid, so one naming us was left by an earlier process
      // with our pid (a restart as pid 1 in a fresh pid namespace).
      if (record.pid === process.pid || hasEnded({ pid: record.pid })) return { kind: "stale" };
      return { kind: "held", holder: record.pid };
    case "full":
      return hasEnded(record.who) ? { kind: "stale" } : { kind: "held", holder: record.who.pid };
  }
}
