/**
 * `rego run --server [--addr host:port] <path>...`: loads every path (files or directories,
 * recursively), compiles all or nothing, then serves OPA's REST API until SIGTERM/SIGINT.
 * Start-up errors are listed with file:line:col and the exit code is 1.
 */

import { addrProblem, createLogger, type LogFormat } from "@quintet/kit";
import { loadConfig } from "../../config.js";
import { buildEngine } from "../../loader/build-engine.js";
import { startPolicyServer } from "../../server/app.js";
import { consoleDecisionLogger } from "../../server/decision-log.js";
import { PolicyStore } from "../../server/policy-store.js";
import type { CliIO, Command } from "../cli-io.js";
import { describeFailure, isExpectedFailure } from "../error-report.js";
import { parseFlags, UsageError } from "../parse-flags.js";
import { runRepl } from "../repl/run-repl.js";
import { shutdownSignal, whenAborted } from "../shutdown-signal.js";
import { reloadEngine, watchPaths } from "../watch.js";
import { packageVersion } from "./version.js";

const USAGE = `Usage: rego run [--server] [flags] <path>...

Paths are .rego files, data files, or directories loaded recursively (data.json and
data.yaml merge into data at their directory's path below the directory given).
Without --server, an interactive shell (REPL) reads queries and rules from stdin.

Flags:
  -s, --server                   serve the REST API (without it: the REPL)
  -w, --watch                    reload policy and data files when they change
  -a, --addr <host:port>         listen address (default $REGO_ADDR or localhost:8181)
      --set <key=value>          config override (repeatable); supported:
                                   decision_logs.console=true|false
                                   server.decoding.max_length=<bytes>
                                   default_decision=<path> (POST /; system/main)
                                   server.workers=<n> (evaluation threads; 0 = main)
      --shutdown-grace-period <s> seconds in-flight requests get on shutdown
  -l, --log-level <level>        debug, info or error
      --v0-compatible            parse policies as Rego v0 (default address :8181)
`;

const OPTIONS = {
  server: { type: "boolean", short: "s" },
  watch: { type: "boolean", short: "w" },
  addr: { type: "string", short: "a", multiple: true },
  set: { type: "string", multiple: true },
  "shutdown-grace-period": { type: "string" },
  "log-level": { type: "string", short: "l" },
  "v0-compatible": { type: "boolean" },
} as const;

interface RunSettings {
  addr: string;
  decisionLogs: boolean;
  maxBodyBytes: number;
  graceMs: number;
  logLevel: string;
  evalTimeoutMs: number;
  maxInputDepth: number;
  maxCollectionSize: number;
  logFormat?: LogFormat;
  /** OPA's `default_decision`, as a path below `data` (`POST /`). */
  defaultDecision: string[];
  /** Evaluation worker threads; 0 evaluates on the main thread. */
  workers: number;
}

function applySet(settings: RunSettings, assignment: string): void {
  const [key, value] = assignment.split("=", 2);
  if (key === "decision_logs.console" && (value === "true" || value === "false")) {
    settings.decisionLogs = value === "true";
  } else if (key === "default_decision" && /^\/?[^/\s]+(\/[^/\s]+)*$/.test(value ?? "")) {
    settings.defaultDecision = (value as string).replace(/^\//, "").split("/");
  } else if (key === "server.workers" && /^(0|[1-9]\d{0,3})$/.test(value ?? "")) {
    settings.workers = Number(value);
  } else if (key === "server.decoding.max_length" && /^[1-9]\d*$/.test(value ?? "")) {
    settings.maxBodyBytes = Number(value);
  } else {
    throw new UsageError(`--set ${assignment}: unsupported key or value (see rego help run)`);
  }
}

function readSettings(
  argv: string[],
  io: CliIO,
): { settings: RunSettings; paths: string[]; v0: boolean; server: boolean; watch: boolean } {
  const { values, positionals } = parseFlags(argv, OPTIONS);
  const config = loadConfig(io.env);
  const addrFlag = values.addr?.at(-1);
  const settings: RunSettings = {
    addr: addrFlag ?? (values["v0-compatible"] && !io.env.REGO_ADDR ? ":8181" : config.addr),
    decisionLogs: config.decisionLogs,
    maxBodyBytes: config.maxBodyBytes,
    graceMs: config.shutdownGraceMs,
    logLevel: values["log-level"] ?? config.logLevel,
    evalTimeoutMs: config.evalTimeoutMs,
    maxInputDepth: config.maxInputDepth,
    maxCollectionSize: config.maxCollectionSize,
    logFormat: config.logFormat,
    defaultDecision: ["system", "main"],
    workers: config.workers,
  };
  const bad = addrProblem("--addr", settings.addr, { emptyHost: true });
  if (bad) throw new UsageError(bad);
  for (const assignment of values.set ?? []) applySet(settings, assignment);
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
  };
}

async function runServer(argv: string[], io: CliIO): Promise<number> {
  let parsed: ReturnType<typeof readSettings>;
  try {
    parsed = readSettings(argv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`error: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr(describeFailure(e));
    return 1;
  }
  const { settings, paths } = parsed;
  if (!parsed.server) return runRepl(paths, { v0: parsed.v0, watch: parsed.watch }, io);
  const log = createLogger({
    service: "policy",
    level: settings.logLevel,
    format: settings.logFormat,
    destination: { write: io.stderr, isTTY: process.stderr.isTTY },
  });
  let built: ReturnType<typeof buildEngine>;
  try {
    built = buildEngine(paths, { v0Compatible: parsed.v0 });
  } catch (e) {
    if (!isExpectedFailure(e)) throw e;
    io.stderr(describeFailure(e, true));
    return 1;
  }
  const { engine } = built;
  // Read per request: API writes and --watch reloads swap in a new state.
  const store = new PolicyStore(engine, built.files.modules, built.files.bundles);
  const server = await startPolicyServer(
    {
      engine,
      policies: built.files.modules,
      store,
      defaultDecision: settings.defaultDecision,
      maxBodyBytes: settings.maxBodyBytes,
      evalTimeoutMs: settings.evalTimeoutMs,
      maxInputDepth: settings.maxInputDepth,
      maxCollectionSize: settings.maxCollectionSize,
      workers: settings.workers,
      onWorkerLost: (reason) => log.error({ reason }, "Evaluation worker replaced."),
      decisionLogger: settings.decisionLogs
        ? consoleDecisionLogger((line) => io.stdout(line), { version: packageVersion() })
        : undefined,
      onInternalError: (error) => log.error({ err: error }, "request failed"),
    },
    settings.addr,
  ).catch((e: Error) => {
    io.stderr(`error: cannot listen on ${settings.addr}: ${e.message}\n`);
    return undefined;
  });
  if (!server) return 1;
  log.info(
    { addrs: [settings.addr], url: server.url, modules: engine.modules().length },
    "Initializing server.",
  );
  io.onListening?.(server.url);
  const watcher = parsed.watch
    ? watchPaths(paths, () => {
        const r = reloadEngine(paths, parsed.v0);
        if (r.ok) {
          store.reset(r.loaded.engine, r.loaded.files.modules, r.loaded.files.bundles);
          log.info({ modules: r.loaded.engine.modules().length }, "Reloaded policies and data.");
        } else {
          log.error({ errors: r.error }, "Reload failed; keeping the last good policies and data.");
        }
      })
    : undefined;
  await whenAborted(io.signal ?? shutdownSignal());
  watcher?.stop();
  log.info({ graceMs: settings.graceMs }, "Shutting down...");
  await server.close(settings.graceMs);
  log.info("Server shutdown.");
  return 0;
}

export const runCommand: Command = {
  name: "run",
  summary: "Start the policy server (OPA REST API) or, without --server, the REPL",
  usage: USAGE,
  run: runServer,
};
