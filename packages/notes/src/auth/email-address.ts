/**
 * Sign-up and login emails: one account per mailbox. An address is trimmed, brought to Unicode
 * NFC (the same letters typed on different keyboards are the same code points) and lower-cased
 * as a whole, local part included: RFC 5321 lets a server tell `Bob` from `bob`, but practically
 * no mail provider does, and two accounts for one inbox are the real risk. Its length is counted
 * in code points, as PostgreSQL counts `varchar(64)`.
 */
import { MAX_EMAIL_LENGTH } from "../db/schema.js";
import { codePointLength, isValidLine } from "../http/text-rules.js";

/** Something@something with no spaces: enough to catch typos, no attempt at RFC 5322. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/** The canonical form of an address as typed: trimmed, NFC, lower case. */
export function canonicalEmail(typed: string): string {
  return typed.trim().normalize("NFC").toLowerCase();
}

/**
 * Why a typed sign-up email cannot be registered (a sentence for the error page), or
 * undefined when `canonicalEmail(typed)` is acceptable.
 */
export function emailProblem(typed: string): string | undefined {
  if (!isValidLine(typed)) return "An email cannot contain control characters or invalid text.";
  const email = canonicalEmail(typed);
  if (codePointLength(email) > MAX_EMAIL_LENGTH) {
    return `An email has at most ${MAX_EMAIL_LENGTH} characters.`;
  }
  if (!EMAIL_SHAPE.test(email)) return "An email looks like name@example.com.";
  return undefined;
}
