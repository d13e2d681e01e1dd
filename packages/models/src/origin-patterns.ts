// Allowed-origin patterns (LLMSRV_ORIGINS): the built-in list, checking an entry, matching one.

/** Origins every server allows: localhost names with any port and desktop-app schemes. */
export function defaultOrigins(): string[] {
  const out: string[] = [];
  for (const host of ["localhost", "127.0.0.1", "0.0.0.0"]) {
    out.push(`http://${host}`, `https://${host}`, `http://${host}:*`, `https://${host}:*`);
  }
  out.push("app://*", "file://*", "tauri://*", "vscode-webview://*", "vscode-file://*");
  return out;
}

/**
 * Checks one `LLMSRV_ORIGINS` entry: `*`, or `scheme://rest` with at most one `*`.
 * Returns the problem, or undefined when it is valid.
 */
export function originEntryProblem(entry: string): string | undefined {
  if (entry === "*") return undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\/./i.test(entry)) return `"${entry}" is not scheme://host[:port]`;
  if (entry.indexOf("*") !== entry.lastIndexOf("*"))
    return `"${entry}" has more than one * (one is allowed)`;
  return undefined;
}

/** Tests an origin against a list of exact origins and one-`*` patterns. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  const o = origin.toLowerCase();
  for (const raw of allowed) {
    const entry = raw.toLowerCase();
    if (entry === "*" || entry === o) return true;
    const star = entry.indexOf("*");
    if (star < 0) continue;
    const prefix = entry.slice(0, star);
    const suffix = entry.slice(star + 1);
    if (o.length >= prefix.length + suffix.length && o.startsWith(prefix) && o.endsWith(suffix))
      return true;
  }
  return false;
}
