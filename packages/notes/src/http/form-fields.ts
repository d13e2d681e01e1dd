/**
 * Reading fields of a submitted form. A body may be absent (no content type), a parsed
 * urlencoded object, or JSON from a script; a field is taken only when it is a string.
 */

/** The string value of field `name`, or undefined when it is absent or not a string. */
export function formField(body: unknown, name: string): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  if (typeof value === "string") return value;
  // A field sent twice arrives as an array: take the first, like most frameworks.
  if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  return undefined;
}
