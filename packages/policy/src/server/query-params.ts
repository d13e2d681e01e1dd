/** Query-string parameters read as OPA reads them. */

/**
 * OPA's boolean parameter: absent is false, present without a value (`?pretty`) is true,
 * otherwise true only when some value equals "true" ignoring case.
 */
export function boolParam(params: URLSearchParams, name: string): boolean {
  // `has` allocates nothing; most requests carry none of the parameters asked about.
  if (!params.has(name)) return false;
  const values = params.getAll(name);
  if (values.length === 0) return false;
  return values.some((v) => v === "" || v.toLowerCase() === "true");
}

/** The last value of a repeated parameter, as OPA takes `input`. */
export function lastParam(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length > 0 ? values[values.length - 1] : undefined;
}
