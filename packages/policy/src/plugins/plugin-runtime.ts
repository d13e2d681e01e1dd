/**
 * The plugins a configuration file turns on, started and stopped together: the bundle
 * plugin (when `bundles` is configured) and the status plugin (when `status` is). What the
 * HTTP server reads from them (plugin states, the status report, the public configuration)
 * is the `ManagementView` it is given.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent } from "node:https";
import { rootCertificates } from "node:tls";
import type { PolicyStore } from "../store/policy-store.js";
import { BundlePlugin, type PluginLog } from "./bundle-plugin.js";
import type { BundleVerifier } from "./bundle-verification.js";
import { publicConfig, type RuntimeConfig, type ServiceConfig } from "./config-file.js";
import { DecisionLogsPlugin } from "./decision-logs/decision-logs-plugin.js";
import type { LogService } from "./decision-logs/log-service.js";
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
  /** Console sink for `decision_logs.console` (stdout in `rego run`). */
  readonly console?: (line: string) => void;
  /** Bound on one evaluation of the decision-log mask and drop policies. */
  readonly ruleTimeoutMs?: number;
}

/** A configured service as the decision logger posts to it. */
function logService(service: ServiceConfig): LogService {
  const bearer = service.bearer;
  return {
    name: service.name,
    url: service.url,
    headers: service.headers,
    // A token file is read once, at start (the bundle plugin reads it per request).
    bearerToken: bearer
      ? bearer.tokenPath
        ? readFileSync(bearer.tokenPath, "utf8").trim()
        : bearer.token
      : undefined,
    bearerScheme: bearer?.scheme,
    agent: service.url.startsWith("https:")
      ? new Agent({
          ca: service.caCert ? [...rootCertificates, service.caCert] : undefined,
          rejectUnauthorized: !service.allowInsecureTls,
        })
      : undefined,
    responseHeaderTimeoutMs: service.responseHeaderTimeoutMs,
  };
}

/** Every configured plugin, and the view the server reads. */
export class PluginRuntime implements ManagementView {
  readonly manager = new PluginManager();
  readonly bundles?: BundlePlugin;
  readonly status?: StatusPlugin;
  /** Present with a `decision_logs` section that logs somewhere (a service or the console). */
  readonly decisionLogs?: DecisionLogsPlugin;
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
    const logs = config?.decisionLogsPlugin;
    if (config && logs) {
      const service = logs.service === undefined ? undefined : config.services.get(logs.service);
      this.decisionLogs = new DecisionLogsPlugin({
        config: logs,
        service: service && logService(service),
        engine: () => options.store.engine,
        labels: this.labels,
        bundles: () => this.bundleRevisions(),
        console: options.console,
        log: {
          error: (message) => options.log.error({}, message),
          info: (message) => options.log.info({}, message),
          debug: () => {},
        },
        ruleTimeoutMs: options.ruleTimeoutMs,
      });
      // Uploads retry on their own; OPA reports the plugin OK once it runs.
      this.manager.register("decision_logs", "OK");
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
    this.decisionLogs?.start();
    this.bundles?.start();
    this.status?.start();
  }

  async stop(): Promise<void> {
    await this.bundles?.stop();
    await this.status?.stop();
  }

  statusReport(): StatusReport | undefined {
    const report = this.status?.report();
    if (report && this.decisionLogs)
      return { ...report, decision_logs: this.decisionLogs.status() };
    return report;
  }

  /** The active revision of each downloaded bundle, for decision log events. */
  private bundleRevisions(): Record<string, { revision?: string }> {
    const out: Record<string, { revision?: string }> = {};
    for (const [name, s] of Object.entries(this.bundles?.statuses() ?? {})) {
      if (s.active_revision !== undefined) out[name] = { revision: s.active_revision };
    }
    return out;
  }

  publicConfig(): Record<string, unknown> {
    return publicConfig(this.options.config, this.labels);
  }
}
