/**
 * `GET /metrics`: Prometheus text (prom-client) for the model server. Ollama has no metrics
 * endpoint, so the names are ours, prefixed `llmsrv_`: requests by method, route (the route
 * table's pattern) and status code, with their duration; requests waiting for a slot (queue
 * depth) and models loaded, read from the scheduler at scrape time; tokens generated and the
 * time spent generating them (rate(tokens) / rate(seconds) is tokens per second over any
 * window), and the tokens per second of the last generation. Process and Node.js runtime
 * metrics come with them. Like `/` and `/api/version`, it needs no API key.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { CompletionResult, LoadedModel, ModelRuntime } from "../runtime/model-runner.js";
import type { Scheduler } from "../runtime/scheduler.js";
import { matchRoute, type Route } from "./router.js";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The model server's registry and the metrics it records. */
export class ModelMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "llmsrv_http_requests_total",
    help: "HTTP requests answered, by method, route and status code.",
    labelNames: ["method", "route", "code"] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: "llmsrv_http_request_duration_seconds",
    help: "Time from request to the end of the response (a whole stream for streamed answers).",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  private readonly generated = new Counter({
    name: "llmsrv_generated_tokens_total",
    help: "Tokens generated (eval_count summed over completions).",
    registers: [this.registry],
  });
  private readonly prompted = new Counter({
    name: "llmsrv_prompt_tokens_total",
    help: "Prompt tokens evaluated (prompt_eval_count summed over completions).",
    registers: [this.registry],
  });
  private readonly generating = new Counter({
    name: "llmsrv_generation_seconds_total",
    help: "Time spent generating tokens (eval_duration summed over completions).",
    registers: [this.registry],
  });
  private readonly lastRate = new Gauge({
    name: "llmsrv_tokens_per_second",
    help: "Generation speed of the last completion that generated tokens.",
    registers: [this.registry],
  });

  constructor(private readonly routes: readonly Route[]) {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Queue depth and loaded models, read from the scheduler whenever metrics are scraped. */
  watch(scheduler: Scheduler): void {
    new Gauge({
      name: "llmsrv_queue_depth",
      help: "Requests waiting for a slot on a model (loading or busy), across all models.",
      registers: [this.registry],
      collect() {
        this.set(scheduler.pendingCount);
      },
    });
    new Gauge({
      name: "llmsrv_loaded_models",
      help: "Models loaded in memory.",
      registers: [this.registry],
      collect() {
        this.set(scheduler.status().length);
      },
    });
  }

  private observeCompletion(result: CompletionResult): void {
    this.prompted.inc(result.promptEvalCount);
    this.generated.inc(result.evalCount);
    this.generating.inc(result.evalNs / 1e9);
    if (result.evalCount > 0 && result.evalNs > 0) {
      this.lastRate.set(result.evalCount / (result.evalNs / 1e9));
    }
  }

  /** The runtime with every completion of every model it loads counted. */
  countTokens(runtime: ModelRuntime): ModelRuntime {
    const backend = runtime.backend?.bind(runtime);
    return {
      ...(backend && { backend }),
      load: async (spec, signal) => {
        const loaded = await runtime.load(spec, signal);
        const counted = Object.create(loaded) as LoadedModel & {
          complete: LoadedModel["complete"];
        };
        counted.complete = async (...args) => {
          const result = await loaded.complete(...args);
          this.observeCompletion(result);
          return result;
        };
        return counted;
      },
      close: () => runtime.close(),
    };
  }

  /** Puts `GET /metrics` and the request metrics in front of the server's own listener. */
  serve(server: Server): void {
    const listeners = server.listeners("request") as Listener[];
    server.removeAllListeners("request");
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const method = req.method ?? "GET";
      const path = new URL(req.url ?? "/", "http://localhost").pathname;
      const match = matchRoute(this.routes, method, path.replace(/(.)\/+$/, "$1"));
      const route =
        path === "/metrics" ? "/metrics" : match.kind === "found" ? match.route.path : "other";
      const stop = this.duration.startTimer({ method, route });
      res.once("finish", () => {
        stop();
        this.requests.inc({ method, route, code: String(res.statusCode) });
      });
      if (path === "/metrics" && method === "GET") {
        req.resume();
        void this.registry.metrics().then((text) => {
          res.writeHead(200, { "Content-Type": this.registry.contentType }).end(text);
        });
        return;
      }
      for (const listener of listeners) listener.call(server, req, res);
    });
  }
}
