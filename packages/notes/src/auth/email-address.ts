/**
 * Sign-up and login emails: one account per mailbox. An address is trimmed, brought to Unicode
 * NFC (the same letters typed on different keyboards are the same code points) and lower-cased
 * as a whole, local part included: RFC 5321 lets a server tell `Bob` from `bob`, but practically
 * no mail provider does, and two accounts for one inbox are the real risk. Its length is counted
 * in code points, as PostgreSQL counts `varchar(64)`.
 *
 * Addresses that would look identical to another one are refused, not folded: invisible and
 * direction-changing characters (zero-width space U+200B and its kin, soft hyphen U+00AD, the
 * bidi controls U+061C, U+200E/F, U+202A-202E, U+2066-2069, variation selectors, tags...) and a
 * domain with an empty label (`example.com.`, `example..com`). Folding them away would have to
 * guess which visible address was meant, and no real mailbox needs them.
 */
import { MAX_EMAIL_LENGTH } from "../db/schema.js";
import { codePointLength, isValidLine } from "../http/text-rules.js";

/** Something@something with no spaces: enough to catch typos, no attempt at RFC 5322. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/**
 * Format characters (Cf: every bidi control, zero-width characters, the soft hyphen) and the
 * rest of Unicode's default-ignorable code points (fillers, variation selectors): characters
 * that are invisible or reorder the text around them.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/** `U+XXXX` of a character, for messages. */
function codePointName(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

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
  const invisible = INVISIBLE.exec(email)?.[0];
  if (invisible) {
    return `An email cannot contain invisible or direction-changing characters (${codePointName(invisible)} found).`;
  }
  if (!EMAIL_SHAPE.test(email)) return "An email looks like name@example.com.";
  const domain = email.slice(email.indexOf("@") + 1);
  if (domain.split(".").includes("")) {
    return "An email's domain cannot start or end with a dot or have two dots in a row.";
  }
  return undefined;
}
