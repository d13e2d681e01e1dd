/**
 * OPA's decision logs plugin: each decision becomes an event (OPA's fields), passes the drop
 * and mask policies, and is written to the console and/or buffered for upload to a service in
 * gzip-compressed batches, periodically with a jittered delay, retried with backoff when the
 * service fails, and flushed when the server stops.
 *
 * `record` is what the server calls for every decision: it only assigns the id and queues the
 * event; the policies run afterwards, so logging never holds a decision back.
 */
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { toJSON, type Value } from "../../value/value.js";
import type { DecisionLogsConfig } from "./config.js";
import { consoleLine } from "./console-line.js";
import type { Decision, DecisionLogger } from "./decision.js";
import { type DecisionEvent, eventJSON, nowMs, rfc3339, ruleInput } from "./decision-event.js";
import type { LogService } from "./log-service.js";
import { applyMaskRules, parseMaskRules } from "./mask-rules.js";
import { RateLimiter } from "./rate-limiter.js";
import {
  type BufferCounters,
  EventBuffer,
  SizeBuffer,
  type UploadBuffer,
} from "./upload-buffer.js";
import { UploadHTTPError, uploadChunk } from "./upload-chunk.js";

/** Evaluates `data.<path>` with an input: the engine's evalRefAsync. */
export interface RuleEvaluator {
  evalRefAsync(
    path: (string | number)[],
    options?: { input?: Value; timeoutMs?: number },
  ): Promise<Value | undefined>;
}

/** Where the plugin reports its own problems (the server's logger fits). */
export interface PluginLog {
  error(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** Delays in milliseconds; tests shorten them (OPA's configuration takes whole seconds). */
export interface UploadTiming {
  minDelayMs: number;
  maxDelayMs: number;
  /** First retry delay after a failed upload; grows by 1.6 per failure up to maxDelayMs. */
  minRetryDelayMs: number;
  /** Pause between flush attempts while stopping. */
  flushRetryDelayMs: number;
}

export interface DecisionLogsPluginOptions {
  config: DecisionLogsConfig;
  /** The service `config.service` names; required when it names one. */
  service?: LogService;
  /** The engine now serving decisions (it changes when policies are reloaded). */
  engine: () => RuleEvaluator;
  /** Labels of this instance; `id` defaults to a random UUID. */
  labels?: Record<string, string>;
  /** Revisions of the active bundles, for the events' `bundles` field. */
  bundles?: () => Record<string, { revision?: string }>;
  /** Console sink for `config.console` (stdout in `rego run`). */
  console?: (line: string) => void;
  log?: PluginLog;
  timing?: Partial<UploadTiming>;
  /** Bound on one evaluation of the mask or drop policy (the server's evaluation timeout). */
  ruleTimeoutMs?: number;
}

/** The upload state, as OPA's status API reports it under `decision_logs`. */
export interface DecisionLogsStatus {
  code?: "decision_log_error";
  message?: string;
  http_code?: number;
}

const silent: PluginLog = { error() {}, info() {}, debug() {} };

/** OPA's backoff: base·1.6^retries capped at max, ±20% jitter; no wait before the first retry. */
export function retryDelayMs(baseMs: number, maxMs: number, retries: number): number {
  if (retries === 0) return 0;
  let delay = baseMs;
  for (let n = retries; delay < maxMs && n > 0; n--) delay *= 1.6;
  delay = Math.min(delay, maxMs);
  return Math.max(0, delay * (1 + 0.2 * (Math.random() * 2 - 1)));
}

export class DecisionLogsPlugin implements DecisionLogger {
  private readonly config: DecisionLogsConfig;
  private readonly labels: Record<string, string>;
  private readonly log: PluginLog;
  private readonly timing: UploadTiming;
  private readonly limiter?: RateLimiter;
  private readonly buffer?: UploadBuffer;
  private readonly counts = new Map<string, number>();
  private requestId = 0;
  /** Events wait here for their drop and mask policies, one after the other, in order. */
  private queue: Promise<void> = Promise.resolve();
  private uploading?: Promise<boolean>;
  private timer?: NodeJS.Timeout;
  private retries = 0;
  private stopped = false;
  private lastStatus: DecisionLogsStatus = {};

  constructor(private readonly options: DecisionLogsPluginOptions) {
    const { config } = options;
    if (config.service !== undefined && options.service?.name !== config.service) {
      throw new Error(`decision_logs: service "${config.service}" was not supplied`);
    }
    this.config = config;
    this.labels = { id: randomUUID(), ...options.labels };
    this.log = options.log ?? silent;
    const { minDelaySeconds, maxDelaySeconds } = config.reporting;
    this.timing = {
      minDelayMs: minDelaySeconds * 1000,
      maxDelayMs: maxDelaySeconds * 1000,
      minRetryDelayMs: 100,
      flushRetryDelayMs: 1000,
      ...options.timing,
    };
    const rate = config.reporting.maxDecisionsPerSecond;
    if (rate !== undefined) this.limiter = new RateLimiter(rate);
    if (config.service !== undefined) this.buffer = this.newBuffer();
  }

  private newBuffer(): UploadBuffer {
    const r = this.config.reporting;
    const counters: BufferCounters = {
      dropped: (n) => {
        this.count("decision_logs_dropped_buffer_size_limit_exceeded", n);
        this.log.error(
          `Dropped ${n} chunks from buffer. Reduce reporting interval or increase buffer size.`,
        );
      },
      encodingFailure: (bytes, limit) => {
        this.count("decision_logs_encoding_failure", 1);
        this.log.error(
          `Log encoding failed: received a decision event size (${bytes}) that exceeded the upload_size_limit_bytes (${limit}).`,
        );
      },
    };
    return r.bufferType === "event"
      ? new EventBuffer(r.uploadSizeLimitBytes, r.bufferSizeLimitEvents, counters)
      : new SizeBuffer(r.uploadSizeLimitBytes, r.bufferSizeLimitBytes, counters);
  }

  private count(name: string, n: number): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + n);
  }

  /** Counters of dropped events, by OPA's metric names. */
  metrics(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  status(): DecisionLogsStatus {
    return { ...this.lastStatus };
  }

  record(decision: Decision): string {
    const at = nowMs();
    const event: DecisionEvent = {
      labels: this.labels,
      decision_id: randomUUID(),
      bundles: this.options.bundles?.(),
      path: decision.path,
      input: decision.input,
      result: decision.result,
      requested_by: decision.requestedBy,
      timestamp: rfc3339(at),
      req_id: ++this.requestId,
    };
    const headers = this.requestHeaders(decision.headers);
    if (headers) event.request_context = { http: { headers } };
    if (this.stopped) return event.decision_id;
    const { metrics, error } = decision;
    this.queue = this.queue
      .then(() => this.process(event, metrics, error, new Date(at)))
      .catch((e) => this.log.error(`Decision log event lost: ${(e as Error).message}.`));
    return event.decision_id;
  }

  private requestHeaders(headers?: IncomingHttpHeaders): Record<string, string[]> | undefined {
    if (!headers || this.config.requestContextHeaders.length === 0) return undefined;
    const out: Record<string, string[]> = {};
    for (const name of this.config.requestContextHeaders) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) continue;
      out[name] = Array.isArray(value) ? value : [value];
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }

  /** Drop, mask, then console and buffer; a failing policy loses the event, as in OPA. */
  private async process(
    event: DecisionEvent,
    metrics: Record<string, number>,
    error: Decision["error"],
    now: Date,
  ): Promise<void> {
    const engine = this.options.engine();
    const input = ruleInput(event);
    const timeoutMs = this.options.ruleTimeoutMs || undefined;
    try {
      const drop = await engine.evalRefAsync([...this.config.dropDecision], { input, timeoutMs });
      if (drop === true) return;
    } catch (e) {
      this.log.error(`Log drop decision failed: ${(e as Error).message}.`);
      return;
    }
    event.metrics = metrics;
    if (error) event.error = error;
    try {
      const mask = await engine.evalRefAsync([...this.config.maskDecision], { input, timeoutMs });
      if (mask !== undefined) applyMaskRules(parseMaskRules(toJSON(mask)), event);
    } catch (e) {
      this.log.error(`Log event masking failed: ${(e as Error).message}.`);
      return;
    }
    if (this.config.console) this.options.console?.(consoleLine(event, now));
    if (!this.buffer) return;
    if (this.limiter && !this.limiter.allow()) {
      this.count("decision_logs_dropped_rate_limit_exceeded", 1);
      this.log.error(
        "Decision log dropped as rate limit exceeded. Reduce reporting interval or increase rate limit.",
      );
      return;
    }
    this.buffer.push(eventJSON(event));
  }

  /** Starts periodic uploads (nothing to start without a service or with manual triggers). */
  start(): void {
    if (!this.buffer || this.config.reporting.trigger !== "periodic" || this.stopped) return;
    this.log.info("Starting decision logger.");
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => void this.tick(), delayMs);
    // Pending uploads must not keep a finished process alive.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let ok: boolean;
    try {
      ok = await this.upload();
    } catch (e) {
      // Nothing may end the loop: an unexpected failure counts as a failed upload.
      this.log.error(`Decision log upload failed: ${(e as Error).message}.`);
      ok = false;
    }
    if (this.stopped) return;
    const { minDelayMs, maxDelayMs, minRetryDelayMs } = this.timing;
    let delay: number;
    if (ok) {
      this.retries = 0;
      delay = minDelayMs + (maxDelayMs - minDelayMs) * Math.random();
    } else {
      delay = retryDelayMs(minRetryDelayMs, maxDelayMs, this.retries);
      this.retries++;
    }
    this.log.debug(`Waiting ${Math.round(delay)} ms before next upload/retry.`);
    this.schedule(delay);
  }

  /**
   * Uploads everything buffered now (events still waiting for their policies included);
   * true when all of it reached the service. Failed chunks go back into the buffer.
   */
  async upload(): Promise<boolean> {
    await this.queue;
    while (this.uploading) await this.uploading;
    this.uploading = this.uploadOnce();
    try {
      return await this.uploading;
    } finally {
      this.uploading = undefined;
    }
  }

  private async uploadOnce(): Promise<boolean> {
    const { buffer, options } = this;
    if (!buffer || !options.service) return true;
    const chunks = buffer.drain();
    let failure: Error | undefined;
    for (const chunk of chunks) {
      if (!failure) {
        try {
          await uploadChunk(options.service, this.config.resource, chunk);
        } catch (e) {
          failure = e as Error;
        }
      }
      if (failure) buffer.requeue(chunk);
    }
    this.setStatus(failure);
    if (failure) this.log.error(`${failure.message}.`);
    else if (chunks.length > 0) this.log.info("Logs uploaded successfully.");
    return failure === undefined;
  }

  private setStatus(failure: Error | undefined): void {
    if (!failure) this.lastStatus = {};
    else if (failure instanceof UploadHTTPError) {
      this.lastStatus = {
        code: "decision_log_error",
        message: failure.message,
        http_code: failure.statusCode,
      };
    } else this.lastStatus = { code: "decision_log_error", message: failure.message };
  }

  /**
   * Stops periodic uploads and flushes: retries the upload until it succeeds or `graceMs`
   * has passed (OPA flushes within the shutdown grace period). True when nothing was left.
   */
  async stop(graceMs = 10_000): Promise<boolean> {
    if (this.stopped) return true;
    this.stopped = true;
    clearTimeout(this.timer);
    this.log.info("Stopping decision logger.");
    // As OPA: only periodic uploading flushes on stop; with manual triggers the owner uploads.
    if (!this.buffer || this.config.reporting.trigger !== "periodic") {
      await this.queue;
      return true;
    }
    const deadline = performance.now() + graceMs;
    const pause = (ms: number) =>
      new Promise<false>((r) => setTimeout(() => r(false), Math.max(0, ms)).unref());
    for (;;) {
      // A slow service must not hold the shutdown past its grace period.
      const attempt = this.upload().catch(() => false);
      const done = await Promise.race([attempt, pause(deadline - performance.now())]);
      if (done) return true;
      const left = deadline - performance.now();
      if (left <= 0) break;
      await pause(Math.min(this.timing.flushRetryDelayMs, left));
    }
    this.log.error("Plugin stopped with decisions possibly still in buffer.");
    return false;
  }
}
