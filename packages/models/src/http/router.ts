// The router: a route table matched by method and path, and each request's context.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerDeps } from "../service/deps.js";
import { parseJsonObject, readBodyText } from "./request-body.js";

/** HTTP methods the server routes. */
export type Method = "GET" | "HEAD" | "POST" | "DELETE";

/** Everything a handler gets for one request. */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: Readonly<Record<string, string>>;
  /** Aborts when the client disconnects before the response is complete. */
  readonly signal: AbortSignal;
  readonly deps: ServerDeps;
  /** Reads and parses the JSON object body (400 on empty or malformed bodies). */
  body(): Promise<Record<string, unknown>>;
  /** Sends a JSON response. */
  json(status: number, value: unknown): void;
}

/** A handler writes the response or throws; thrown errors become error responses. */
export type Handler = (ctx: RequestContext) => Promise<void>;

/** One row of the route table. `openai` routes answer errors in OpenAI's shape. */
export interface Route {
  method: Method;
  path: string;
  handler: Handler;
  openai?: boolean;
  /** Reachable without the API key (health checks). */
  public?: boolean;
}

/** Result of matching a path against the table. */
export type RouteMatch =
  | { kind: "found"; route: Route; params: Record<string, string> }
  | { kind: "wrong_method"; openai: boolean }
  | { kind: "none" };

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const p = pattern.split("/");
  const s = path.split("/");
  if (p.length !== s.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    const seg = p[i] as string;
    if (seg.startsWith(":")) params[seg.slice(1)] = decodeURIComponent(s[i] as string);
    else if (seg !== s[i]) return undefined;
  }
  return params;
}

/** Finds the route for a method and path (HEAD falls back to GET routes). */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  let pathMatched: Route | undefined;
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.method === method || (method === "HEAD" && route.method === "GET")) {
      return { kind: "found", route, params };
    }
    pathMatched ??= route;
  }
  return pathMatched
    ? { kind: "wrong_method", openai: pathMatched.openai ?? false }
    : { kind: "none" };
}

/** Builds the context of one request. */
export function createContext(
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string>,
  signal: AbortSignal,
  deps: ServerDeps,
): RequestContext {
  return {
    req,
    res,
    params,
    signal,
    deps,
    body: async () => parseJsonObject(await readBodyText(req, deps.config.maxBodyBytes)),
    json: (status, value) => {
      const text = JSON.stringify(value);
      res.writeHead(status, {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": Buffer.byteLength(text),
      });
      res.end(req.method === "HEAD" ? undefined : text);
    },
  };
}
