/**
 * Readers for environment variables that collect problems instead of throwing, so a
 * package's config module can report every bad variable at once, each by name.
 */

const hostPort = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]*):(\d{1,5})$/;

/**
 * Why `value` is not `host:port` (IPv6 in brackets, port 0-65535), or undefined. An empty
 * host (`:8181`, every interface, as OPA accepts) is allowed only with `emptyHost`.
 */
export function addrProblem(
  name: string,
  value: string,
  { emptyHost = false }: { emptyHost?: boolean } = {},
): string | undefined {
  const match = hostPort.exec(value);
  if (match && match[1] === "" && !emptyHost) {
    return `${name} must be host:port with a host before the colon, got "${value}"`;
  }
  if (!match || Number(match[2]) > 65535) {
    return `${name} must be host:port with a port 0-65535, got "${value}"`;
  }
  return undefined;
}

/** A `host:port` variable, or `fallback` when unset; a bad value is recorded in `bad`. */
export function readAddr(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: string,
  bad: string[],
): string {
  const value = env[name] || fallback;
  const problem = addrProblem(name, value);
  if (problem) bad.push(problem);
  return value;
}

/**
 * A whole-number variable within [min, max], or `fallback` when unset; a bad value is
 * recorded in `bad` and the fallback returned so checking can go on.
 */
export function readWholeNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  [min, max]: [number, number],
  bad: string[],
): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    bad.push(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
    return fallback;
  }
  return value;
}
