/**
 * `rego run --server [--addr host:port] <path>...`: loads every path (files or directories,
 * recursively), compiles all or nothing, then serves OPA's REST API until SIGTERM/SIGINT.
 * Start-up errors are listed with file:line:col and the exit code is 1.
 */

import { addrProblem, createLogger, type LogFormat, whenAborted } from "@quintet/kit";
import { loadConfig } from "../../config.js";
import { buildEngine } from "../../loader/build-engine.js";
import { BundleLoadError } from "../../loader/load-bundles.js";
import {
  ConfigFileError,
  parseRuntimeConfig,
  type RuntimeConfig,
  readConfigDocument,
} from "../../plugins/config-file.js";
import { OverrideSyntaxError } from "../../plugins/config-overrides.js";
import { PluginRuntime } from "../../plugins/plugin-runtime.js";
import { startPolicyServer } from "../../server/app.js";
import { PolicyStore } from "../../store/policy-store.js";
import { packageVersion } from "../../version.js";
import {
  BUNDLE_FLAG_OPTIONS,
  BUNDLE_FLAG_USAGE,
  buildBundleEngine,
  bundleLoadOptions,
  bundlesVerified,
  reloadBundleEngine,
} from "../bundle-flags.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { describeFailure, isExpectedFailure } from "../error-report.js";
import { parseFlags, UsageError } from "../parse-flags.js";
import { runRepl } from "../repl/run-repl.js";
import { reloadEngine, watchPaths } from "../watch.js";

const USAGE = `Usage: rego run [--server] [flags] <path>...

Paths are .rego files, data files, or directories loaded recursively (data.json and
data.yaml merge into data at their directory's path below the directory given).
Without --server, an interactive shell (REPL) reads queries and rules from stdin.

Flags:
  -s, --server                   serve the REST API (without it: the REPL)
  -w, --watch                    reload policy and data files when they change
  -a, --addr <host:port>         listen address (default $REGO_ADDR or localhost:8181)
  -c, --config-file <file>       OPA configuration file (YAML or JSON): services, bundles,
                                   status, labels, keys, decision_logs, default_decision,
                                   persistence_directory, server.decoding.max_length,
                                   server.workers (evaluation threads; 0 = main thread)
      --set <key=value[,...]>    override a configuration key (dotted path, repeatable), e.g.
                                   decision_logs.console=true, default_decision=/a/b
      --set-file <key=path>      override a configuration key with a file's text
      --shutdown-grace-period <s> seconds in-flight requests get on shutdown
  -l, --log-level <level>        debug, info or error
      --v0-compatible            parse policies as Rego v0 (default address :8181)
${BUNDLE_FLAG_USAGE}`;

const OPTIONS = {
  server: { type: "boolean", short: "s" },
  watch: { type: "boolean", short: "w" },
  addr: { type: "string", short: "a", multiple: true },
  set: { type: "string", multiple: true },
  "set-file": { type: "string", multiple: true },
  "config-file": { type: "string", short: "c" },
  "shutdown-grace-period": { type: "string" },
  "log-level": { type: "string", short: "l" },
  "v0-compatible": { type: "boolean" },
  ...BUNDLE_FLAG_OPTIONS,
} as const;

interface RunSettings {
  addr: string;
  maxBodyBytes: number;
  graceMs: number;
  logLevel: string;
  evalTimeoutMs: number;
  maxInputDepth: number;
  maxCollectionSize: number;
  logFormat?: LogFormat;
  /** OPA's `default_decision`, as a path below `data` (`POST /`). */
  defaultDecision: readonly string[];
  /** Evaluation worker threads; 0 evaluates on the main thread. */
  workers: number;
  /** The configuration file with --set/--set-file applied, validated. */
  runtime: RuntimeConfig;
}

/**
 * The configuration file and overrides; malformed overrides are usage errors (exit 2).
 * `REGO_DECISION_LOGS=console` stands for `decision_logs.console: true` where the file and
 * overrides leave it unset, so console lines go through the same masking plugin.
 */
function readRuntimeConfig(
  values: { "config-file"?: string; set?: string[]; "set-file"?: string[] },
  envConsole: boolean,
): RuntimeConfig {
  try {
    const doc = readConfigDocument(values["config-file"], {
      set: values.set,
      setFile: values["set-file"],
    });
    const logs = doc.decision_logs ?? {};
    if (envConsole && typeof logs === "object" && !("console" in logs)) {
      doc.decision_logs = { ...logs, console: true };
    }
    return parseRuntimeConfig(doc, { cwd: process.cwd() });
  } catch (e) {
    if (e instanceof OverrideSyntaxError) throw new UsageError(e.message);
    throw e;
  }
}

function readSettings(
  argv: string[],
  io: PolicyIo,
): {
  settings: RunSettings;
  paths: string[];
  v0: boolean;
  server: boolean;
  watch: boolean;
  bundles: ReturnType<typeof bundleLoadOptions>;
} {
  const { values, positionals } = parseFlags(argv, OPTIONS);
  const config = loadConfig(io.env);
  const addrFlag = values.addr?.at(-1);
  const runtime = readRuntimeConfig(values, config.decisionLogs);
  const settings: RunSettings = {
    addr: addrFlag ?? (values["v0-compatible"] && !io.env.REGO_ADDR ? ":8181" : config.addr),
    maxBodyBytes: runtime.maxBodyBytes ?? config.maxBodyBytes,
    graceMs: config.shutdownGraceMs,
    logLevel: values["log-level"] ?? config.logLevel,
    evalTimeoutMs: config.evalTimeoutMs,
    maxInputDepth: config.maxInputDepth,
    maxCollectionSize: config.maxCollectionSize,
    logFormat: config.logFormat,
    defaultDecision: runtime.defaultDecision ?? ["system", "main"],
    runtime,
    workers: runtime.serverWorkers ?? config.workers,
  };
  const bad = addrProblem("--addr", settings.addr, { emptyHost: true });
  if (bad) throw new UsageError(bad);
  const grace = values["shutdown-grace-period"];
  if (grace !== undefined) {
    if (!/^\d+$/.test(grace)) throw new UsageError("--shutdown-grace-period must be whole seconds");
    settings.graceMs = Number(grace) * 1000;
  }
  if (!["debug", "info", "error"].includes(settings.logLevel))
    throw new UsageError("--log-level must be debug, info or error");
  return {
    settings,
    paths: positionals,
    v0: values["v0-compatible"] ?? false,
    server: values.server ?? false,
    watch: values.watch ?? false,
    bundles: bundleLoadOptions(values),
  };
}

async function runServer(argv: string[], io: PolicyIo): Promise<number> {
  let parsed: ReturnType<typeof readSettings>;
  try {
    parsed = readSettings(argv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`error: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof ConfigFileError) {
      io.stderr.write(`error: ${e.message}\n`);
      return 1;
    }
    io.stderr.write(describeFailure(e));
    return 1;
  }
  const { settings, paths } = parsed;
  if (!parsed.server) {
    // The REPL loads the paths itself; with -b their signatures are checked first.
    if (parsed.bundles && !bundlesVerified(paths, parsed.bundles, io)) return 1;
    return runRepl(paths, { v0: parsed.v0, watch: parsed.watch }, io);
  }
  const log = createLogger({
    service: "policy",
    level: settings.logLevel,
    format: settings.logFormat,
    destination: { write: (text: string) => io.stderr.write(text), isTTY: process.stderr.isTTY },
  });
  // With -b every path is a bundle, verified before use (OPA's bundle mode).
  const bundles = parsed.bundles;
  let built: ReturnType<typeof buildEngine>;
  try {
    built = bundles
      ? buildBundleEngine(paths, bundles, parsed.v0)
      : buildEngine(paths, { v0Compatible: parsed.v0 });
  } catch (e) {
    if (e instanceof BundleLoadError) {
      io.stderr.write(`error: load error: ${e.message}\n`);
      return 1;
    }
    if (!isExpectedFailure(e)) throw e;
    io.stderr.write(describeFailure(e, true));
    return 1;
  }
  const { engine } = built;
  // Read per request: API writes and --watch reloads swap in a new state.
  const store = new PolicyStore(engine, built.files.modules, built.files.bundles);
  // Bundles, status: what --config-file turns on (nothing without one).
  const plugins = new PluginRuntime({
    config: settings.runtime,
    store,
    log,
    version: packageVersion(),
    console: (line) => io.stdout.write(line),
    ruleTimeoutMs: settings.evalTimeoutMs,
  });
  const server = await startPolicyServer(
    {
      engine,
      policies: built.files.modules,
      store,
      defaultDecision: settings.defaultDecision,
      management: plugins,
      maxBodyBytes: settings.maxBodyBytes,
      evalTimeoutMs: settings.evalTimeoutMs,
      maxInputDepth: settings.maxInputDepth,
      maxCollectionSize: settings.maxCollectionSize,
      workers: settings.workers,
      onWorkerLost: (reason) => log.error({ reason }, "Evaluation worker replaced."),
      onEvaluationFallback: (reason) =>
        log.error({ reason }, "Evaluation workers cannot start; evaluating on the main thread."),
      decisionLogger: plugins.decisionLogs,
      onInternalError: (error) => log.error({ err: error }, "request failed"),
    },
    settings.addr,
  ).catch((e: Error) => {
    io.stderr.write(`error: cannot listen on ${settings.addr}: ${e.message}\n`);
    return undefined;
  });
  if (!server) return 1;
  log.info(
    { addrs: [settings.addr], url: server.url, modules: engine.modules().length },
    "Initializing server.",
  );
  plugins.start();
  io.onListening?.(server.url);
  const watcher = parsed.watch
    ? watchPaths(paths, () => {
        const r = bundles
          ? reloadBundleEngine(paths, bundles, parsed.v0)
          : reloadEngine(paths, parsed.v0);
        if (r.ok) {
          store.reset(r.loaded.engine, r.loaded.files.modules, r.loaded.files.bundles);
          plugins.bundles?.reactivate();
          log.info({ modules: r.loaded.engine.modules().length }, "Reloaded policies and data.");
        } else {
          log.error({ errors: r.error }, "Reload failed; keeping the last good policies and data.");
        }
      })
    : undefined;
  await whenAborted(io.signal);
  watcher?.stop();
  await plugins.stop();
  log.info({ graceMs: settings.graceMs }, "Shutting down...");
  await server.close(settings.graceMs);
  // Decisions answered during the grace period are logged too: flush after the server closed.
  await plugins.decisionLogs?.stop(settings.graceMs);
  log.info("Server shutdown.");
  return 0;
}

export const runCommand: Command = {
  name: "run",
  summary: "Start the policy server (OPA REST API) or, without --server, the REPL",
  usage: USAGE,
  run: runServer,
};
