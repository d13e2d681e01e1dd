/**
 * What counts as acceptable text in a form field, and how long it is. One rule for every
 * field: well-formed Unicode (no lone surrogates, which also stand for undecodable
 * percent-encoding, see `form-parser.ts`) and no NUL, which PostgreSQL cannot store in text
 * and C libraries read as the end of a string. Emails also refuse every other control character.
 */

/** A lone surrogate: in `u` mode a proper pair is one code point, so only lone ones match. */
const LONE_SURROGATE = /\p{Cs}/u;

/** True when `text` is well-formed Unicode without a NUL. */
export function isValidText(text: string): boolean {
  return !LONE_SURROGATE.test(text) && !text.includes("\u0000");
}

/** Unicode's general category Cc: the C0 controls, DEL and the C1 controls. */
const CONTROL = /\p{Cc}/u;

/** True when `text` is valid and has no control character at all (for single-line fields). */
export function isValidLine(text: string): boolean {
  return isValidText(text) && !CONTROL.test(text);
}

/** Length in Unicode code points: how PostgreSQL counts `varchar(n)` characters. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * A textarea's value as the browser measures it for `maxlength`: line breaks normalised to
 * one LF (the form submits CRLF), length in UTF-16 code units (JavaScript's `length`).
 */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** Text safe to show back in a form: ill-formed parts and NULs replaced by U+FFFD. */
export function displayable(text: string): string {
  return text.replace(/\p{Cs}/gu, "\uFFFD").replaceAll("\u0000", "\uFFFD");
}
