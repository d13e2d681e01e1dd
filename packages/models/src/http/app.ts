// The HTTP app: API key check, browser guard, routing, and one error answer for every failure.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { LlmsrvError } from "../errors.js";
import type { ServerDeps } from "../service/deps.js";
import { type HttpError, ollamaErrorBody, openaiErrorBody, toHttpError } from "./error-response.js";
import { guardRequest } from "./origin-guard.js";
import { logAccess, logFailure } from "./request-log.js";
import { createContext, matchRoute, type Route } from "./router.js";

function sendError(res: ServerResponse, err: HttpError, openai: boolean): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(openai ? openaiErrorBody(err) : ollamaErrorBody(err));
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  // The rest of an oversized body is not read: the connection cannot be reused.
  if (err.status === 413) headers.Connection = "close";
  res.writeHead(err.status, headers);
  res.end(text);
}

/** Checks `Authorization: Bearer <key>` when an API key is configured. */
function authorized(req: IncomingMessage, apiKey: string | undefined): boolean {
  if (!apiKey) return true;
  const header = req.headers.authorization ?? "";
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m?.[1] === apiKey;
}

/** Aborts when the client goes away before the response is complete. */
function disconnectSignal(req: IncomingMessage, res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableFinished)
      controller.abort(new LlmsrvError("request_canceled", "request canceled"));
  };
  res.on("close", onClose);
  req.on("aborted", onClose);
  return controller.signal;
}

async function dispatch(
  routes: readonly Route[],
  deps: ServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/(.)\/+$/, "$1");
  logAccess(deps.log, deps.config.accessLog, req, res, path);
  const guard = { listenHost: deps.config.host, origins: deps.config.origins };
  if (!guardRequest(req, res, guard)) return;
  const match = matchRoute(routes, req.method ?? "GET", path);
  if (match.kind === "none") {
    res.writeHead(404, { "Content-Type": "text/plain" }).end("404 page not found");
    return;
  }
  if (match.kind === "wrong_method") {
    res.writeHead(405, { "Content-Type": "text/plain" }).end("405 method not allowed");
    return;
  }
  const { route, params } = match;
  const openai = route.openai ?? false;
  if (!route.public && !authorized(req, deps.config.apiKey)) {
    sendError(
      res,
      toHttpError(new LlmsrvError("unauthorized", "invalid or missing API key")),
      openai,
    );
    return;
  }
  const signal = disconnectSignal(req, res);
  try {
    await route.handler(createContext(req, res, params, signal, deps));
  } catch (e) {
    const err = toHttpError(e);
    logFailure(deps.log, e, err, path);
    if (!signal.aborted) sendError(res, err, openai);
    else if (!res.writableEnded) res.end();
  }
}

/** Builds the HTTP server over the route table; it is not yet listening. */
export function createApp(routes: readonly Route[], deps: ServerDeps): Server {
  const server = createServer((req, res) => {
    void dispatch(routes, deps, req, res);
  });
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 0; // generations may run for a long time
  return server;
}
