// Starts the server: store, runtime, scheduler and HTTP app wired together; graceful stop.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { LlmsrvConfig } from "./config.js";
import { ensureDemoModels } from "./demo/demo-setup.js";
import { createApp } from "./http/app.js";
import { ModelMetrics } from "./http/metrics.js";
import { ROUTES } from "./http/routes.js";
import type { ModelRuntime } from "./runtime/model-runner.js";
import { ProcessRuntime } from "./runtime/process-runtime.js";
import { Scheduler } from "./runtime/scheduler.js";
import type { ServerDeps } from "./service/deps.js";
import { ModelStore } from "./store/model-store.js";
import { pruneUnreferencedBlobs } from "./store/startup-prune.js";

/** A running server. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly deps: ServerDeps;
  close(): Promise<void>;
}

/** Start-up options beyond the configuration. */
export interface StartOptions {
  ensureDemo?: boolean;
  /** A runtime to use instead of node-llama-cpp's (tests that must make loading fail). */
  runtime?: ModelRuntime;
  /** First wait before retrying an interrupted blob download (default: Ollama's 1 s). */
  pullRetryDelayMs?: number;
}

/** Opens the store, optionally registers the demo model, and listens. */
export async function startServer(
  config: LlmsrvConfig,
  log: Logger,
  options: StartOptions = {},
): Promise<RunningServer> {
  const store = new ModelStore(config.modelsDir, { pruneReplaced: !config.noPrune });
  if (!config.noPrune) {
    // Before listening: no upload, create or pull of this process is in flight.
    const pruned = await pruneUnreferencedBlobs(config.modelsDir);
    if (pruned.skipped) log.warn({ reason: pruned.skipped }, "blob prune skipped");
    else if (pruned.removed > 0) log.info(pruned, "unused blobs removed");
  }
  if (options.ensureDemo) {
    for (const demo of await ensureDemoModels(store)) {
      log.info({ model: demo.display, digest: demo.digest }, "demo model ready");
    }
  }
  const metrics = new ModelMetrics(ROUTES);
  const llamaLog = log.child({ component: "llama.cpp" });
  const runtime = metrics.countTokens(
    options.runtime ??
      new ProcessRuntime({
        maxThreads: config.physicalCores,
        gpu: config.gpu,
        log: (level, message) => llamaLog[level](message),
        onBackend: (report) =>
          "error" in report
            ? log.error({ gpu: config.gpu, error: report.error }, "inference backend unavailable")
            : log.info({ gpu: config.gpu, ...report }, `inference backend: ${report.backend}`),
      }),
  );
  const scheduler = new Scheduler(
    runtime,
    {
      maxLoadedModels: config.maxLoadedModels,
      numParallel: config.numParallel,
      maxQueue: config.maxQueue,
      keepAliveMs: config.keepAliveMs,
      flashAttention: config.flashAttention,
      kvCacheType: config.kvCacheType,
      maxModelMemory: config.maxModelMemory,
    },
    (event) =>
      event.type === "unloaded" && event.reason === "crashed"
        ? log.error(event, "model runner terminated")
        : log.info(event, `model ${event.type}`),
  );
  const deps: ServerDeps = {
    config,
    store,
    scheduler,
    log,
    ...(options.pullRetryDelayMs !== undefined && { pullRetryDelayMs: options.pullRetryDelayMs }),
  };
  const server: Server = createApp(ROUTES, deps);
  metrics.watch(scheduler);
  metrics.serve(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    deps,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await scheduler.shutdown();
    },
  };
}
