// Parsing of a server address (LLMSRV_HOST, OLLAMA_HOST) the way Ollama's envconfig.Host does.
import { isIPv6 } from "node:net";

/** A parsed address: where the server listens, and the base URL a client calls. */
export interface HostAddress {
  /** `http` or `https` (a client's scheme; the server itself serves plain HTTP). */
  readonly scheme: "http" | "https";
  readonly host: string;
  readonly port: number;
  /** Path after the address, without slashes around it ("" for none); clients prefix it. */
  readonly path: string;
}

export const DEFAULT_PORT = 11434;

/**
 * Parses `[scheme://]host[:port][/path]`, `:port`, `host`, `[::1]:port` or a bare IPv6
 * address as Ollama does: without a scheme the port defaults to 11434, `http://` without a
 * port means 80, `https://` 443; `:port` alone means 127.0.0.1. Unlike Ollama, a bad port or
 * an unknown scheme is an error (undefined) rather than a silent default.
 */
export function parseHostAddress(text: string): HostAddress | undefined {
  // Ollama's envconfig.Var trims white space and quotes.
  const s = text.trim().replace(/^["']+|["']+$/g, "");
  if (s === "") return undefined;
  const cut = s.indexOf("://");
  const schemeText = cut >= 0 ? s.slice(0, cut).toLowerCase() : "http";
  if (schemeText !== "http" && schemeText !== "https") return undefined;
  const scheme = schemeText;
  const defaultPort = cut < 0 ? DEFAULT_PORT : scheme === "https" ? 443 : 80;
  const rest = cut >= 0 ? s.slice(cut + 3) : s;
  const slash = rest.indexOf("/");
  const hostport = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash + 1).replace(/^\/+|\/+$/g, "") : "";
  const split = splitHostPort(hostport);
  if (!split) return undefined;
  const host = split.host === "" ? "127.0.0.1" : split.host;
  if (split.port === undefined) return { scheme, host, port: defaultPort, path };
  if (!/^\d+$/.test(split.port)) return undefined;
  const port = Number(split.port);
  if (port > 65535) return undefined;
  return { scheme, host, port, path };
}

/** Go's net.SplitHostPort, falling back to a host alone (a bare IPv6 address included). */
function splitHostPort(hostport: string): { host: string; port?: string } | undefined {
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(hostport);
  if (bracketed) {
    const host = bracketed[1] as string;
    if (!isIPv6(host)) return undefined;
    return bracketed[2] === undefined ? { host } : { host, port: bracketed[2] };
  }
  if (isIPv6(hostport)) return { host: hostport };
  const colon = hostport.indexOf(":");
  if (colon < 0) return hostport === "" ? undefined : { host: hostport };
  if (hostport.indexOf(":", colon + 1) >= 0) return undefined;
  return { host: hostport.slice(0, colon), port: hostport.slice(colon + 1) };
}

/** The base URL a client uses for an address: a wildcard host becomes loopback, as Ollama's client does. */
export function clientBaseUrl(addr: HostAddress): string {
  const wildcard = addr.host === "0.0.0.0" || addr.host === "::";
  const host = wildcard ? "127.0.0.1" : addr.host;
  const shown = host.includes(":") ? `[${host}]` : host;
  return `${addr.scheme}://${shown}:${addr.port}${addr.path ? `/${addr.path}` : ""}`;
}
