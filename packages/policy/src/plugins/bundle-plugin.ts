/**
 * OPA's bundle plugin: downloads each configured bundle from its service, polls again after
 * a random delay between `min_delay_seconds` and `max_delay_seconds`, sends the last ETag as
 * `If-None-Match` (304: unchanged), and activates a new bundle all or nothing through the
 * PolicyStore. Any failure (service down or slow, HTTP error, corrupt archive, bad
 * signature, parse or compile error) keeps the last good state and is logged and reported
 * in the bundle's status. With `persist: true` the last activated archive is written to
 * `<persistence_directory>/bundles/<name>/bundle.tar.gz` and activated at the next start,
 * before the first download succeeds.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { RegoError } from "../errors.js";
import { readBundle, storedManifest } from "../loader/bundle.js";
import { readTar, type TarEntry } from "../loader/tar.js";
import {
  BundleActivationError,
  COMPILE_MODULE_ERROR,
  type PolicyStore,
} from "../store/policy-store.js";
import { type BundleVerifier, verifyDownloadedBundle } from "./bundle-verification.js";
import type { BundleSourceConfig, RuntimeConfig } from "./config-file.js";
import type { PluginManager } from "./plugin-manager.js";
import { HttpStatusError, serviceRequest } from "./service-client.js";

/** The plugin's name in status reports and health checks. */
export const BUNDLE_PLUGIN = "bundle";

/** What the plugin logs through (a pino-like logger). */
export interface PluginLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** One bundle's status, with OPA's field names (times in Go's RFC 3339 text). */
export interface BundleStatus {
  name: string;
  active_revision?: string;
  last_successful_activation?: string;
  type?: string;
  size?: number;
  last_successful_download?: string;
  last_successful_request?: string;
  last_request?: string;
  code?: string;
  message?: string;
  errors?: { code: string; message: string; location?: object }[];
  http_code?: number;
}

/** Go's `time.Time` zero value, as OPA prints a time that never happened. */
export const ZERO_TIME = "0001-01-01T00:00:00Z";

/** A time as Go's RFC3339Nano prints it in UTC (trailing zeros of the fraction dropped). */
export function goTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0*Z$/, "Z");
}

function errorItems(errors: readonly RegoError[]): BundleStatus["errors"] {
  return errors.map((e) => ({
    code: e.code,
    message: e.message,
    ...(e.location
      ? { location: { file: e.location.file, row: e.location.row, col: e.location.col } }
      : {}),
  }));
}

/** A status with OPA's field order, empty fields left out and unset times as zero time. */
function shownStatus(s: BundleStatus): BundleStatus {
  const out: BundleStatus = { name: s.name };
  if (s.active_revision) out.active_revision = s.active_revision;
  out.last_successful_activation = s.last_successful_activation ?? ZERO_TIME;
  if (s.type) out.type = s.type;
  if (s.size) out.size = s.size;
  out.last_successful_download = s.last_successful_download ?? ZERO_TIME;
  out.last_successful_request = s.last_successful_request ?? ZERO_TIME;
  out.last_request = s.last_request ?? ZERO_TIME;
  if (s.code) out.code = s.code;
  if (s.message) out.message = s.message;
  if (s.errors && s.errors.length > 0) out.errors = s.errors;
  if (s.http_code) out.http_code = s.http_code;
  return out;
}

/** OPA's answer type of a service that holds requests until the bundle changes. */
const LONG_POLL_TYPE = "application/vnd.openpolicyagent.bundles";

function isLongPollAnswer(contentType: string | undefined): boolean {
  return contentType === LONG_POLL_TYPE;
}

/** OPA's retry delay (util.DefaultBackoff from 100 ms): 0 on the first retry. */
export function retryBackoffMs(maxMs: number, retries: number, random: () => number): number {
  if (retries === 0) return 0;
  let backoff = 100;
  for (let left = retries; backoff < maxMs && left > 0; left--) backoff *= 1.6;
  backoff = Math.min(backoff, maxMs);
  return Math.max(0, backoff * (1 + 0.2 * (random() * 2 - 1)));
}

/** An archive that cannot be read or verified (OPA: a failed download). */
class BundleReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BundleReadError";
  }
}

interface BundleState {
  readonly config: BundleSourceConfig;
  status: BundleStatus;
  etag?: string;
  activated: boolean;
  /** The archive activated last, for `reactivate`. */
  lastGood?: Buffer;
  /** Whether the next request is a long poll (configured, and the service answered as one). */
  longPolling: boolean;
  timer?: NodeJS.Timeout;
  wake?: () => void;
}

/** Options of the bundle plugin. */
export interface BundlePluginOptions {
  readonly config: RuntimeConfig;
  readonly store: PolicyStore;
  readonly manager: PluginManager;
  readonly log: PluginLog;
  /** Signature check for bundles configured for verification (the wired verifier). */
  readonly verify?: BundleVerifier;
  /** Called after every download attempt or activation (the status plugin listens). */
  readonly onStatus?: () => void;
  /** Source of randomness for the polling delay (tests may fix it). */
  readonly random?: () => number;
}

/** Downloads, polls and activates every configured bundle. */
export class BundlePlugin {
  private readonly bundles: BundleState[];
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  /** Cuts downloads in flight when the plugin stops. */
  private readonly abort = new AbortController();

  constructor(private readonly options: BundlePluginOptions) {
    this.bundles = options.config.bundles.map((config) => ({
      config,
      status: { name: config.name },
      activated: false,
      longPolling: config.longPollingTimeoutSeconds !== undefined,
    }));
    options.manager.register(BUNDLE_PLUGIN);
  }

  /** Activates persisted bundles, then starts polling (the first download at once). */
  start(): void {
    for (const b of this.bundles) {
      if (b.config.persist) this.loadPersisted(b);
    }
    this.updateReadiness();
    for (const b of this.bundles) this.loops.push(this.pollLoop(b));
  }

  /** Stops polling; an in-flight download finishes without being activated. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    for (const b of this.bundles) {
      clearTimeout(b.timer);
      b.wake?.();
    }
    await Promise.all(this.loops);
  }

  /**
   * Every bundle's status, by name (OPA's `bundles` object of a status report), in OPA's
   * field order; times that never happened print as Go's zero time, as OPA's do.
   */
  statuses(): Record<string, BundleStatus> {
    return Object.fromEntries(this.bundles.map((b) => [b.config.name, shownStatus(b.status)]));
  }

  /**
   * Activates every bundle's last good archive again: after the store was rebuilt from
   * files (a `--watch` reload), which drops what bundles had activated.
   */
  reactivate(): void {
    for (const b of this.bundles) {
      if (!b.lastGood) continue;
      try {
        this.activate(b, b.lastGood);
      } catch (e) {
        this.recordError(b, e);
      }
    }
    this.options.onStatus?.();
  }

  private persistPath(b: BundleState): string {
    return join(
      this.options.config.persistenceDirectory,
      "bundles",
      b.config.name,
      "bundle.tar.gz",
    );
  }

  private loadPersisted(b: BundleState): void {
    let gzipped: Buffer;
    try {
      gzipped = readFileSync(this.persistPath(b));
    } catch {
      return; // Nothing persisted yet.
    }
    try {
      this.activate(b, gzipped);
      this.options.log.info(
        { name: b.config.name, revision: b.status.active_revision },
        "Bundle loaded from persistence storage and activated successfully.",
      );
    } catch (e) {
      this.options.log.error(
        { name: b.config.name, err: e },
        "Failed to load bundle from persistence storage.",
      );
    }
  }

  private persist(b: BundleState, gzipped: Buffer): void {
    const path = this.persistPath(b);
    try {
      mkdirSync(dirname(path), { recursive: true });
      // Written beside and renamed: a crash never leaves a half-written archive.
      writeFileSync(`${path}.tmp`, gzipped);
      renameSync(`${path}.tmp`, path);
    } catch (e) {
      this.options.log.error({ name: b.config.name, err: e }, "Persisting bundle failed.");
    }
  }

  /**
   * OPA's downloader loop: after a failure, an exponential backoff (100 ms growing by 1.6
   * up to `max_delay_seconds`, ±20% jitter; the first retry at once); after a long-poll
   * answer, the next request at once; otherwise a random delay between min and max.
   */
  private async pollLoop(b: BundleState): Promise<void> {
    let retry = 0;
    while (!this.stopped) {
      const ok = await this.downloadOnce(b);
      if (this.stopped) return;
      const random = this.options.random ?? Math.random;
      const { minDelayMs, maxDelayMs } = b.config;
      let delay = 0;
      if (!ok) delay = retryBackoffMs(maxDelayMs, retry, random);
      else if (!b.longPolling) delay = minDelayMs + random() * (maxDelayMs - minDelayMs);
      await new Promise<void>((resolve) => {
        b.wake = resolve;
        b.timer = setTimeout(resolve, delay);
        b.timer.unref();
      });
      retry = ok ? 0 : retry + 1;
    }
  }

  /** One request and what follows from its answer; false when the download or read failed. */
  private async downloadOnce(b: BundleState): Promise<boolean> {
    const service = this.options.config.services.get(b.config.service);
    if (!service) return false; // Configuration validation guarantees it exists.
    b.status.last_request = goTime(Date.now());
    const longPollSeconds = b.longPolling ? b.config.longPollingTimeoutSeconds : undefined;
    // Only snapshot bundles are understood here, so deltas are not offered.
    const headers: Record<string, string> = {
      Prefer:
        longPollSeconds === undefined ? "modes=snapshot" : `modes=snapshot;wait=${longPollSeconds}`,
    };
    if (b.etag) headers["If-None-Match"] = b.etag;
    try {
      const res = await serviceRequest(
        // A long poll waits as long as the service holds it: no header timeout (as OPA).
        longPollSeconds === undefined ? service : { ...service, responseHeaderTimeoutMs: 0 },
        b.config.resource,
        { headers, signal: this.abort.signal },
      ).catch((e: Error) => {
        throw new Error(`request failed: ${e.message}`);
      });
      if (this.stopped) return true;
      const answered = goTime(Date.now());
      if (res.status === 304) {
        b.status.last_successful_request = answered;
        const etag = res.headers.etag;
        if (typeof etag === "string" && etag !== "") b.etag = etag;
        this.clearError(b);
        return true;
      }
      if (res.status !== 200) throw new HttpStatusError(res.status);
      b.status.last_successful_request = answered;
      b.longPolling =
        isLongPollAnswer(res.headers["content-type"]) &&
        b.config.longPollingTimeoutSeconds !== undefined;
      if (res.body.length === 0) {
        b.etag = undefined; // OPA: an empty body is no bundle, and forgets the ETag.
        return true;
      }
      b.status.last_successful_download = answered;
      const etag = res.headers.etag;
      this.activate(b, res.body, typeof etag === "string" && etag !== "" ? etag : undefined);
      b.etag = typeof etag === "string" && etag !== "" ? etag : undefined;
      if (b.config.persist) this.persist(b, res.body);
      this.options.log.info(
        { name: b.config.name, revision: b.status.active_revision },
        "Bundle loaded and activated successfully.",
      );
      return true;
    } catch (e) {
      if (this.stopped) return true;
      b.etag = undefined; // Download it whole next time (OPA clears its cache on any failure).
      this.recordError(b, e);
      // OPA backs off after a failed download or read; a bundle that downloaded but did not
      // activate (roots, parse, compile) waits the ordinary polling delay.
      return e instanceof BundleActivationError;
    } finally {
      this.updateReadiness();
      this.options.onStatus?.();
    }
  }

  /** Reads, verifies and activates an archive; throws (state unchanged) when it is not good. */
  /** Activates `gzipped` for `b`; `etag` is the download's (recorded at data.system.bundles). */
  private activate(b: BundleState, gzipped: Buffer, etag = b.etag): void {
    let files: TarEntry[];
    try {
      files = readTar(gunzipSync(gzipped)).map((f) => ({
        name: f.name.replace(/^(\.\/|\/)+/, ""),
        content: f.content,
      }));
      // A delta read as a snapshot would wipe the data under its roots: refused instead.
      if (files.some((f) => f.name === "patch.json")) {
        throw new Error("delta bundles (patch.json) are not supported");
      }
      const verify = this.options.verify ?? verifyDownloadedBundle;
      verify({ name: b.config.name, gzipped, files }, b.config.verification);
    } catch (e) {
      throw new BundleReadError(`bundle ${b.config.name}: ${(e as Error).message}`);
    }
    let contents: ReturnType<typeof readBundle>;
    try {
      contents = readBundle(b.config.name, gzipped);
    } catch (e) {
      throw new BundleReadError(`bundle ${b.config.name}: ${(e as Error).message}`);
    }
    const revision = contents.manifest?.revision ?? "";
    this.options.store.activateBundle({
      name: b.config.name,
      roots: contents.roots,
      modules: contents.modules,
      documents: contents.documents,
      revision,
      manifest: storedManifest(contents.manifest),
      etag,
    });
    b.activated = true;
    b.lastGood = gzipped;
    b.status.active_revision = revision;
    b.status.last_successful_activation = goTime(Date.now());
    b.status.type = "snapshot";
    b.status.size = gzipped.length;
    this.clearError(b);
  }

  private clearError(b: BundleState): void {
    delete b.status.code;
    delete b.status.message;
    delete b.status.errors;
    delete b.status.http_code;
  }

  private recordError(b: BundleState, e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    b.status.code = "bundle_error";
    // OPA: parse and compile errors are listed, under the Policy API's message.
    const compileErrors = e instanceof BundleActivationError && e.errors.length > 0;
    b.status.message = compileErrors ? COMPILE_MODULE_ERROR : message;
    if (compileErrors) b.status.errors = errorItems(e.errors);
    else delete b.status.errors;
    if (e instanceof HttpStatusError) b.status.http_code = e.status;
    else delete b.status.http_code;
    this.options.log.error(
      { name: b.config.name, err: message },
      "Bundle load failed; keeping the last activated bundle.",
    );
  }

  /** OK once every bundle has been activated (OPA's bundle plugin readiness). */
  private updateReadiness(): void {
    if (this.bundles.every((b) => b.activated)) {
      this.options.manager.setState(BUNDLE_PLUGIN, "OK");
    }
  }
}
