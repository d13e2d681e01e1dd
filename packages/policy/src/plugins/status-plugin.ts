/**
 * OPA's status plugin: a report of the instance's labels, every bundle's status and every
 * plugin's state, sent as JSON with `POST <service>/status[/<partition_name>]` whenever
 * something changes (changes that arrive during an upload are sent once it ends), and
 * logged as a "Status Log" line when `status.console` is true. `GET /v1/status` answers the
 * current report.
 */

import type { BundlePlugin, BundleStatus, PluginLog } from "./bundle-plugin.js";
import type { RuntimeConfig, StatusConfig } from "./config-file.js";
import type { DecisionLogsStatus } from "./decision-logs/decision-logs-plugin.js";
import type { PluginManager, PluginState } from "./plugin-manager.js";
import { HttpStatusError, serviceRequest } from "./service-client.js";

/** The plugin's name in status reports and health checks. */
export const STATUS_PLUGIN = "status";

/** A status report (the body of an upload and the `result` of `GET /v1/status`). */
export interface StatusReport {
  labels: Record<string, string>;
  bundles?: Record<string, BundleStatus>;
  plugins: Record<string, { state: PluginState }>;
  /** The decision log uploader's state, when it is configured. */
  decision_logs?: DecisionLogsStatus;
}

/** Options of the status plugin. */
export interface StatusPluginOptions {
  readonly config: RuntimeConfig;
  readonly status: StatusConfig;
  readonly manager: PluginManager;
  /** `labels` with `id` and `version` added. */
  readonly labels: Readonly<Record<string, string>>;
  readonly bundles?: BundlePlugin;
  readonly log: PluginLog;
}

/** Builds, uploads and logs status reports. */
export class StatusPlugin {
  private uploading = false;
  private dirty = false;
  private stopped = false;
  private idle: Promise<void> = Promise.resolve();
  /** Cuts an upload in flight when the plugin stops. */
  private readonly abort = new AbortController();

  constructor(private readonly options: StatusPluginOptions) {
    options.manager.register(STATUS_PLUGIN, "OK");
    options.manager.onChange(() => this.changed());
  }

  /** The current report. */
  report(): StatusReport {
    const plugins: Record<string, { state: PluginState }> = {};
    for (const [name, state] of Object.entries(this.options.manager.allStates())) {
      plugins[name] = { state };
    }
    const bundles = this.options.bundles?.statuses();
    return { labels: { ...this.options.labels }, ...(bundles ? { bundles } : {}), plugins };
  }

  /** Sends the first report. */
  start(): void {
    this.changed();
  }

  /** Stops sending; waits for an upload in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.idle;
  }

  /** Something in the report changed: send (or, during an upload, send again after it). */
  changed(): void {
    if (this.stopped) return;
    if (this.uploading) {
      this.dirty = true;
      return;
    }
    this.idle = this.sendLoop();
  }

  private async sendLoop(): Promise<void> {
    this.uploading = true;
    try {
      do {
        this.dirty = false;
        await this.send(this.report());
      } while (this.dirty && !this.stopped);
    } finally {
      this.uploading = false;
    }
  }

  private async send(report: StatusReport): Promise<void> {
    const { status, config, log } = this.options;
    if (status.console) log.info(report, "Status Log");
    if (!status.service) return;
    const service = config.services.get(status.service);
    if (!service) return;
    const path = status.partitionName ? `status/${status.partitionName}` : "status";
    try {
      const res = await serviceRequest(service, path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: Buffer.from(JSON.stringify(report)),
        signal: this.abort.signal,
      });
      if (res.status < 200 || res.status >= 300) throw new HttpStatusError(res.status);
    } catch (e) {
      if (this.stopped) return;
      log.error({ err: (e as Error).message }, "Status update failed.");
    }
  }
}
