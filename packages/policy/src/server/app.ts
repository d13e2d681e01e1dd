/**
 * The HTTP server: one route table, a dispatcher that parses the request target, and a
 * single error path through `toHttpError`. Built on node:http for speed; no framework.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PolicyStore } from "../store/policy-store.js";
import { methodNotAllowed, routeNotFound } from "./api-error.js";
import { handleCompile } from "./compile-handler.js";
import { handleConfig } from "./config-handler.js";
import { handleData } from "./data-handler.js";
import { handleDataWrite } from "./data-write-handler.js";
import { handleDefaultDecision } from "./default-decision-handler.js";
import { toHttpError } from "./error-response.js";
import { startEvaluations } from "./eval-pool-setup.js";
import type { EvalOutcome, Evaluations } from "./evaluations.js";
import { handleHealth } from "./health-handler.js";
import { type EngineView, withMetrics } from "./metrics.js";
import { handlePolicies } from "./policies-handler.js";
import { handlePolicyWrite } from "./policy-write-handler.js";
import { handleQuery } from "./query-handler.js";
import { sendJson } from "./respond.js";
import {
  evaluationsOf,
  type Handler,
  type RequestTarget,
  type ServerContext,
} from "./server-context.js";
import { handleStatus } from "./status-handler.js";
import { handleWebhook } from "./webhook-handler.js";

/** A route: a path prefix (exact or followed by `/`) and a handler per method. */
interface Route {
  readonly prefix: string;
  readonly methods: Readonly<Partial<Record<string, Handler>>>;
}

/** Every route the server knows. Other methods on these paths get 405; other paths 404. */
const ROUTES: readonly Route[] = [
  {
    prefix: "/v1/data",
    methods: {
      GET: handleData,
      POST: handleData,
      PUT: handleDataWrite,
      PATCH: handleDataWrite,
      DELETE: handleDataWrite,
    },
  },
  { prefix: "/health", methods: { GET: handleHealth } },
  { prefix: "/v1/query", methods: { GET: handleQuery, POST: handleQuery } },
  { prefix: "/v1/compile", methods: { POST: handleCompile } },
  { prefix: "/v0/data", methods: { POST: handleWebhook } },
  {
    prefix: "/v1/policies",
    methods: { GET: handlePolicies, PUT: handlePolicyWrite, DELETE: handlePolicyWrite },
  },
  { prefix: "/v1/status", methods: { GET: handleStatus } },
  { prefix: "/v1/config", methods: { GET: handleConfig } },
];

/** `/` alone: OPA's default decision (no prefix match: every other path is its own route). */
const ROOT_ROUTE: Route = { prefix: "/", methods: { POST: handleDefaultDecision } };

/** Shared by requests without a query string; handlers only read parameters. */
const NO_PARAMS = new URLSearchParams();

/** The route of a path and the rest of the path below its prefix. */
function findRoute(pathname: string): { route: Route; rest: string } | undefined {
  if (pathname === "/") return { route: ROOT_ROUTE, rest: "" };
  for (const route of ROUTES) {
    if (pathname === route.prefix) return { route, rest: "" };
    if (pathname.startsWith(route.prefix) && pathname[route.prefix.length] === "/") {
      return { route, rest: pathname.slice(route.prefix.length) };
    }
  }
  return undefined;
}

function answerError(res: ServerResponse, error: unknown, onInternal: (e: unknown) => void): void {
  const answer = toHttpError(error);
  if (answer.status >= 500) onInternal(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (answer.body) sendJson(res, answer.status, answer.body);
  else if (answer.text !== undefined) {
    res.writeHead(answer.status, { "content-type": "text/plain; charset=utf-8" });
    res.end(answer.text);
  } else {
    res.writeHead(answer.status, { "content-length": 0 });
    res.end();
  }
}

/** Options of the policy HTTP server. */
export interface PolicyServerOptions extends ServerContext {
  /** Called with internal (500) errors, for the server log. */
  onInternalError?: (error: unknown) => void;
  /** How handlers see the store's current engine (the metrics count its evaluations). */
  viewEngine?: EngineView;
  /** Told of every evaluation the worker pool runs (the metrics count them). */
  onEvaluated?: (outcome: EvalOutcome, seconds: number) => void;
  /** Told when an evaluation worker is lost and replaced (the server log). */
  onWorkerLost?: (reason: string) => void;
  /** Told once when evaluation workers cannot start and the main thread evaluates instead. */
  onEvaluationFallback?: (reason: string) => void;
}

/**
 * The context handlers see: `engine` and `policies` read from the store on every access, so
 * a write (or a reload through `options.store`) is seen by the next request.
 */
function withStore(options: PolicyServerOptions): ServerContext {
  const store =
    options.store ?? new PolicyStore(options.engine, options.policies ?? [], options.bundles);
  const view = options.viewEngine;
  const current = () => (view ? view(store.engine) : store.engine);
  const evaluations =
    options.evaluations ??
    startEvaluations({
      workers: options.workers ?? 0,
      store,
      current,
      evalTimeoutMs: options.evalTimeoutMs,
      onEvaluated: options.onEvaluated,
      onWorkerLost: options.onWorkerLost,
      onFallback: options.onEvaluationFallback,
    });
  return {
    maxBodyBytes: options.maxBodyBytes,
    evalTimeoutMs: options.evalTimeoutMs,
    maxInputDepth: options.maxInputDepth,
    maxCollectionSize: options.maxCollectionSize,
    decisionLogger: options.decisionLogger,
    defaultDecision: options.defaultDecision,
    management: options.management,
    store,
    evaluations,
    get bundles() {
      return store.bundleScopes;
    },
    get engine() {
      return current();
    },
    get policies() {
      return store.policies;
    },
  };
}

/** The request listener: routes, runs the handler, answers errors. */
export function createRequestListener(
  options: PolicyServerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  return requestListener(withStore(options), options.onInternalError);
}

function requestListener(
  ctx: ServerContext,
  onInternalError: ((error: unknown) => void) | undefined,
): (req: IncomingMessage, res: ServerResponse) => void {
  const onInternal = onInternalError ?? (() => {});
  // One function per server, shared by every request's target: no closure per request.
  const fail = (res: ServerResponse, error: unknown): void => answerError(res, error, onInternal);
  return (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    const found = findRoute(pathname);
    const handler = found?.route.methods[req.method ?? "GET"];
    if (!found || !handler) {
      req.resume();
      answerError(res, found ? methodNotAllowed() : routeNotFound(), onInternal);
      return;
    }
    const target: RequestTarget = {
      pathname: found.rest,
      params: q < 0 ? NO_PARAMS : new URLSearchParams(url.slice(q + 1)),
      fail,
    };
    try {
      const pending = handler(ctx, req, res, target);
      if (pending) pending.catch((e: unknown) => answerError(res, e, onInternal));
    } catch (e) {
      answerError(res, e, onInternal);
    }
  };
}

/** A started server and how to stop it. */
export interface RunningServer {
  readonly server: Server;
  /** `http://host:port` actually bound (port resolved when 0 was asked). */
  readonly url: string;
  /** Stops accepting, lets in-flight requests finish for up to `graceMs`, then cuts. */
  close(graceMs?: number): Promise<void>;
}

/** Splits `host:port`; an empty host means all interfaces, `[v6]` loses its brackets. */
export function splitAddr(addr: string): { host: string | undefined; port: number } {
  const i = addr.lastIndexOf(":");
  const host = addr.slice(0, i).replace(/^\[(.*)\]$/, "$1");
  return { host: host === "" ? undefined : host, port: Number(addr.slice(i + 1)) };
}

/**
 * Starts the policy server on `addr` (host:port); settles once it listens and decisions can
 * be evaluated (the first evaluation worker started, or the main thread took over). In
 * between, `/health` answers 500.
 */
export function startPolicyServer(
  options: PolicyServerOptions,
  addr: string,
): Promise<RunningServer> {
  let evaluations: Evaluations | undefined;
  const server = createServer(
    { keepAliveTimeout: 5_000 },
    withMetrics(options, (o) => {
      const ctx = withStore(o);
      evaluations = evaluationsOf(ctx);
      return requestListener(ctx, o.onInternalError);
    }),
  );
  const { host, port } = splitAddr(addr);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const a = server.address() as AddressInfo;
      const shown = a.family === "IPv6" ? `[${a.address}]` : a.address;
      const running: RunningServer = {
        server,
        url: `http://${shown}:${a.port}`,
        close: async (graceMs = 10_000) => {
          await closeServer(server, graceMs);
          await evaluations?.close();
        },
      };
      void (evaluations?.started() ?? Promise.resolve()).then(() => resolve(running));
    });
  });
}

function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
