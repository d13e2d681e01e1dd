/**
 * `GET /metrics`: Prometheus text (prom-client) for the notes app, open like the public pages
 * (a scraper has no session; the figures hold no user data). Requests are counted by method,
 * route (the route's pattern; `other` for paths without a route) and status code, with their
 * duration. Login attempts (`POST /login`) are counted by outcome from the status the login
 * answered: `success` (307 to /secure), `failure` (401: unknown email or wrong password),
 * `throttled` (429), `invalid` (400: a blank field) and `refused` (anything else, such as a
 * cross-site 403); throttled attempts also have their own counter.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

const LOGIN_OUTCOMES: Readonly<Record<number, string>> = {
  307: "success",
  401: "failure",
  429: "throttled",
  400: "invalid",
};

/** The app's registry and the metrics it records. */
class NotesMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: "notes_http_requests_total",
    help: "HTTP requests answered, by method, route and status code.",
    labelNames: ["method", "route", "code"] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: "notes_http_request_duration_seconds",
    help: "Time to answer a request (bcrypt makes logins and sign-ups the slow ones).",
    labelNames: ["method", "route"] as const,
    buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly logins = new Counter({
    name: "notes_logins_total",
    help: "Login attempts (POST /login) by outcome: success, failure, throttled, invalid, refused.",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly throttled = new Counter({
    name: "notes_login_throttled_total",
    help: "Login attempts refused by the throttle (429) before any password check.",
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Counts one answered request. */
  record(request: FastifyRequest, reply: FastifyReply): void {
    const method = request.method;
    const route = request.routeOptions.url ?? (isMetrics(request) ? "/metrics" : "other");
    const code = reply.statusCode;
    this.requests.inc({ method, route, code: String(code) });
    this.duration.observe({ method, route }, reply.elapsedTime / 1000);
    if (method === "POST" && route === "/login") {
      const outcome = LOGIN_OUTCOMES[code] ?? "refused";
      this.logins.inc({ outcome });
      if (outcome === "throttled") this.throttled.inc();
    }
  }
}

function isMetrics(request: FastifyRequest): boolean {
  return request.method === "GET" && request.url.split("?", 1)[0] === "/metrics";
}

/**
 * Answers `GET /metrics` before the session and the gate run, and counts every request.
 * Register it after the security headers hook and before the session hook.
 */
export function registerMetrics(app: FastifyInstance): void {
  const metrics = new NotesMetrics();
  app.addHook("onRequest", async (request, reply) => {
    if (!isMetrics(request)) return;
    const text = await metrics.registry.metrics();
    return reply
      .header("content-type", metrics.registry.contentType)
      .header("cache-control", "no-store")
      .send(text);
  });
  app.addHook("onResponse", async (request, reply) => metrics.record(request, reply));
}
