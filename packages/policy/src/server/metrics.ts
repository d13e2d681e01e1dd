/**
 * `GET /metrics`: Prometheus text (prom-client) for the policy server. HTTP requests are
 * measured under OPA's own metric, `http_request_duration_seconds` with the labels `code`,
 * `handler` (OPA's handler names: `v1/data`, `v0/data`, `v1/query`, `v1/policies`, `health`,
 * `metrics`) and `method`. OPA reports evaluation only per query (`?metrics=true`:
 * `timer_rego_query_eval_ns`), so the evaluation counters are named after it:
 * `rego_query_eval_total{outcome}` (defined, undefined, error) and
 * `rego_query_eval_duration_seconds` (a health check counts: like OPA's, it evaluates a trivial
 * query). Process and Node.js runtime metrics come with them, as OPA's endpoint carries Go's.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Counter, collectDefaultMetrics, Registry } from "prom-client";
import type { PolicyEngine } from "../engine.js";
import { RequestHistogram } from "./request-histogram.js";
import type { ServerContext } from "./server-context.js";

/** OPA's handler label of a path (a route prefix without its slash), or `other`. */
const HANDLERS = ["/v1/data", "/v0/data", "/v1/query", "/v1/policies", "/health", "/metrics"];

export function handlerLabel(pathname: string): string {
  for (const prefix of HANDLERS) {
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return prefix.slice(1);
  }
  return "other";
}

/** The path of a request's target, without its query. */
function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

const STARTED = Symbol("started");

/** A response and when its request arrived (performance.now()). */
type TimedResponse = ServerResponse & { [STARTED]: number };

/** prom-client's default buckets, which OPA's histogram uses too. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The policy server's registry and the metrics it records. */
export class PolicyMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestHistogram(
    "http_request_duration_seconds",
    "A histogram of duration for requests.",
    ["code", "handler", "method"],
    BUCKETS,
    this.registry,
  );
  private readonly evalSeconds = new RequestHistogram(
    "rego_query_eval_duration_seconds",
    "Time one policy evaluation took.",
    [],
    [0.00001, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    this.registry,
  );
  /** Evaluations by outcome, counted as plain numbers on the hot path, read at scrape time. */
  private readonly outcomes = { defined: 0, undefined: 0, error: 0 };

  constructor() {
    const outcomes = this.outcomes;
    new Counter({
      name: "rego_query_eval_total",
      help: "Policy evaluations by the server, by outcome: defined, undefined or error.",
      labelNames: ["outcome"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [outcome, n] of Object.entries(outcomes)) this.inc({ outcome }, n);
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** Times `work`, counting its outcome (`undefined` results are the undefined decisions). */
  private evaluated<T>(work: () => T, isDefined: (result: T) => boolean): T {
    const started = performance.now();
    try {
      const result = work();
      if (isDefined(result)) this.outcomes.defined++;
      else this.outcomes.undefined++;
      return result;
    } catch (error) {
      this.outcomes.error++;
      throw error;
    } finally {
      this.evalSeconds.observe([], (performance.now() - started) / 1000);
    }
  }

  /** Counts an evaluation run elsewhere (a worker thread): its outcome and duration. */
  record(outcome: "defined" | "undefined" | "error", seconds: number): void {
    this.outcomes[outcome]++;
    this.evalSeconds.observe([], seconds);
  }

  private counted: { source: PolicyEngine; counted: PolicyEngine } | undefined;

  /** `countEvaluations`, made once per engine (a write or a reload brings a new one). */
  counting(engine: PolicyEngine): PolicyEngine {
    if (this.counted?.source !== engine)
      this.counted = { source: engine, counted: this.countEvaluations(engine) };
    return this.counted.counted;
  }

  /** The engine as the handlers see it: the same engine, its evaluations counted. */
  countEvaluations(engine: PolicyEngine): PolicyEngine {
    const counted = Object.create(engine) as PolicyEngine;
    counted.evalRef = (path, options) =>
      this.evaluated(
        () => engine.evalRef(path, options),
        (v) => v !== undefined,
      );
    counted.query = (query, options) =>
      this.evaluated(
        () => engine.query(query, options),
        (results) => results.length > 0,
      );
    return counted;
  }

  /** Answers `GET /metrics` and times every other request handled by `listener`. */
  wrap(listener: RequestListener): RequestListener {
    const requests = this.requests;
    // One listener for every response (`this` is the response): no closure per request.
    function finished(this: TimedResponse): void {
      const seconds = (performance.now() - this[STARTED]) / 1000;
      const req = this.req;
      const labels = [String(this.statusCode), handlerLabel(pathOf(req)), req.method ?? "GET"];
      requests.observe(labels, seconds);
    }
    return (req: IncomingMessage, res: ServerResponse) => {
      (res as TimedResponse)[STARTED] = performance.now();
      res.on("finish", finished);
      if (req.method === "GET" && pathOf(req) === "/metrics") {
        req.resume();
        void this.registry.metrics().then((text) => {
          res.writeHead(200, { "content-type": this.registry.contentType });
          res.end(text);
        });
        return;
      }
      listener(req, res);
    };
  }
}

/**
 * The request listener of a server with metrics: `makeListener` is told to see every engine
 * (the first, and each one a write or reload swaps in) through the evaluation counters.
 */
export function withMetrics<
  O extends ServerContext & {
    viewEngine?: EngineView;
    onEvaluated?: (outcome: "defined" | "undefined" | "error", seconds: number) => void;
  },
>(options: O, makeListener: (options: O) => RequestListener): RequestListener {
  const metrics = new PolicyMetrics();
  return metrics.wrap(
    makeListener({
      ...options,
      viewEngine: (e) => metrics.counting(e),
      onEvaluated: (outcome, seconds) => metrics.record(outcome, seconds),
    }),
  );
}

/** How the handlers see an engine (metrics wrap it to count evaluations). */
export type EngineView = (engine: PolicyEngine) => PolicyEngine;
