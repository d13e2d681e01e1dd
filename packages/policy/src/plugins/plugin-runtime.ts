/**
 * The plugins a configuration file turns on, started and stopped together: the bundle
 * plugin (when `bundles` is configured) and the status plugin (when `status` is). What the
 * HTTP server reads from them (plugin states, the status report, the public configuration)
 * is the `ManagementView` it is given.
 */
import { randomUUID } from "node:crypto";
import type { PolicyStore } from "../server/policy-store.js";
import { BundlePlugin, type PluginLog } from "./bundle-plugin.js";
import type { BundleVerifier } from "./bundle-verification.js";
import { publicConfig, type RuntimeConfig } from "./config-file.js";
import { PluginManager } from "./plugin-manager.js";
import { StatusPlugin, type StatusReport } from "./status-plugin.js";

/** What the server's health, status and config handlers read. */
export interface ManagementView {
  readonly manager: PluginManager;
  /** The current status report; undefined when the status plugin is not configured. */
  statusReport(): StatusReport | undefined;
  /** The active configuration without secrets (`GET /v1/config`). */
  publicConfig(): Record<string, unknown>;
}

/** Options of the plugin runtime. */
export interface PluginRuntimeOptions {
  readonly config?: RuntimeConfig;
  readonly store: PolicyStore;
  readonly log: PluginLog;
  /** The server's version, for the `version` label. */
  readonly version: string;
  readonly verify?: BundleVerifier;
  /** Polling delay randomness (tests may fix it). */
  readonly random?: () => number;
}

/** Every configured plugin, and the view the server reads. */
export class PluginRuntime implements ManagementView {
  readonly manager = new PluginManager();
  readonly bundles?: BundlePlugin;
  readonly status?: StatusPlugin;
  /** `labels` with `id` (unique per start) and `version` added, as OPA labels an instance. */
  readonly labels: Readonly<Record<string, string>>;

  constructor(private readonly options: PluginRuntimeOptions) {
    const { config } = options;
    this.labels = { ...config?.labels, id: randomUUID(), version: options.version };
    if (config && config.bundles.length > 0) {
      this.bundles = new BundlePlugin({
        config,
        store: options.store,
        manager: this.manager,
        log: options.log,
        verify: options.verify,
        random: options.random,
        onStatus: () => this.status?.changed(),
      });
    }
    if (config?.status) {
      this.status = new StatusPlugin({
        config,
        status: config.status,
        manager: this.manager,
        labels: this.labels,
        bundles: this.bundles,
        log: options.log,
      });
    }
  }

  start(): void {
    this.bundles?.start();
    this.status?.start();
  }

  async stop(): Promise<void> {
    await this.bundles?.stop();
    await this.status?.stop();
  }

  statusReport(): StatusReport | undefined {
    return this.status?.report();
  }

  publicConfig(): Record<string, unknown> {
    return publicConfig(this.options.config, this.labels);
  }
}
