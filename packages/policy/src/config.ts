/**
 * The only reader of the environment for the policy package. Every REGO_* variable is read
 * and validated once; all problems are reported together, each naming its variable.
 * Command-line flags win over these values (the CLI applies them on top).
 */

import { availableParallelism } from "node:os";
import {
  addrProblem,
  ConfigError,
  type LogFormat,
  readLogFormat,
  readWholeNumber,
} from "@quintet/kit";
/** Settings of the policy server and CLI. */
export interface RegoConfig {
  /** host:port `rego run --server` listens on when --addr is not given. */
  readonly addr: string;
  /** Largest accepted request body, in bytes (after gzip decoding). */
  readonly maxBodyBytes: number;
  /** Log every decision as one JSON line on stdout. */
  readonly decisionLogs: boolean;
  /** Bound on one evaluation of the server in milliseconds; 0 (set explicitly) means none. */
  readonly evalTimeoutMs: number;
  /** Deepest nesting of an input document the server accepts (400 beyond it). */
  readonly maxInputDepth: number;
  /** Most elements one collection (or characters one built string) may have in a query. */
  readonly maxCollectionSize: number;
  /** How long in-flight requests get to finish on SIGTERM/SIGINT. */
  readonly shutdownGraceMs: number;
  /** Level of the server's own log lines (stderr). */
  readonly logLevel: "debug" | "info" | "error";
  /** Log lines as JSON or text; undefined: text on a terminal. */
  readonly logFormat?: LogFormat;
  /** Evaluation worker threads of the server; 0 evaluates on the main thread. */
  readonly workers: number;
}

/**
 * Default number of evaluation workers: one per core, and at least two, so that one slow
 * decision leaves a worker for the others even on a one-core machine.
 */
export function defaultWorkers(): number {
  return Math.max(2, availableParallelism());
}

/** Default bound on one server evaluation: a small request must not hold the server forever. */
export const DEFAULT_EVAL_TIMEOUT_MS = 30_000;
/** Default deepest input: deep enough for any real document, shallow enough to evaluate. */
export const DEFAULT_MAX_INPUT_DEPTH = 1000;
/** Default largest collection: bounds the memory one query can take. */
export const DEFAULT_MAX_COLLECTION_SIZE = 1_000_000;

/** Name, meaning and default of every variable, for `--help` and the README. */
export const configTable = [
  [
    "REGO_ADDR",
    "address (host:port) `rego run --server` listens on without --addr",
    "localhost:8181",
  ],
  ["REGO_MAX_BODY_BYTES", "largest request body accepted; larger bodies get 413", "1048576"],
  [
    "REGO_DECISION_LOGS",
    "`console` logs each decision as a JSON line on stdout (as --set decision_logs.console=true)",
    "off",
  ],
  [
    "REGO_EVAL_TIMEOUT_MS",
    "bound on one server evaluation (eval_cancel_error past it); 0 = none",
    String(DEFAULT_EVAL_TIMEOUT_MS),
  ],
  [
    "REGO_MAX_INPUT_DEPTH",
    "deepest nesting of an input document the server accepts; deeper inputs get 400",
    String(DEFAULT_MAX_INPUT_DEPTH),
  ],
  [
    "REGO_MAX_COLLECTION_SIZE",
    "most elements of one array, set or object (or characters of one built string) in a server query (eval_limit_error past it; `rego eval` uses the default)",
    String(DEFAULT_MAX_COLLECTION_SIZE),
  ],
  ["REGO_SHUTDOWN_GRACE_MS", "time in-flight requests get to finish on SIGTERM/SIGINT", "10000"],
  ["REGO_LOG_LEVEL", "server log level on stderr: debug, info or error", "info"],
  [
    "REGO_SERVER_WORKERS",
    "worker threads that evaluate the server's decisions (as --set server.workers=N); 0 = on the main thread",
    "the number of cores, at least 2",
  ],
] as const;

function readChoice<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  choices: readonly T[],
  fallback: T,
  bad: string[],
): T {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  if (!(choices as readonly string[]).includes(text)) {
    bad.push(`${name} must be one of ${choices.join(", ")}, got "${text}"`);
    return fallback;
  }
  return text as T;
}

/** Reads and validates the REGO_* variables; throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): RegoConfig {
  const bad: string[] = [];
  const addr = env.REGO_ADDR || "localhost:8181";
  const addrBad = addrProblem("REGO_ADDR", addr, { emptyHost: true });
  if (addrBad) bad.push(addrBad);
  const maxBodyBytes = readWholeNumber(env, "REGO_MAX_BODY_BYTES", 1024 * 1024, [1, 2 ** 31], bad);
  const decisionLogs =
    readChoice(env, "REGO_DECISION_LOGS", ["off", "console"] as const, "off", bad) === "console";
  const evalTimeoutMs = readWholeNumber(
    env,
    "REGO_EVAL_TIMEOUT_MS",
    DEFAULT_EVAL_TIMEOUT_MS,
    [0, 86_400_000],
    bad,
  );
  const maxInputDepth = readWholeNumber(
    env,
    "REGO_MAX_INPUT_DEPTH",
    DEFAULT_MAX_INPUT_DEPTH,
    [1, 100_000],
    bad,
  );
  const maxCollectionSize = readWholeNumber(
    env,
    "REGO_MAX_COLLECTION_SIZE",
    DEFAULT_MAX_COLLECTION_SIZE,
    [1, 2 ** 31],
    bad,
  );
  const shutdownGraceMs = readWholeNumber(
    env,
    "REGO_SHUTDOWN_GRACE_MS",
    10_000,
    [0, 3_600_000],
    bad,
  );
  const logLevel = readChoice(
    env,
    "REGO_LOG_LEVEL",
    ["debug", "info", "error"] as const,
    "info",
    bad,
  );
  const logFormat = readLogFormat(env, bad);
  const workers = readWholeNumber(env, "REGO_SERVER_WORKERS", defaultWorkers(), [0, 1024], bad);
  if (bad.length > 0) throw new ConfigError(bad);
  return Object.freeze({
    addr,
    maxBodyBytes,
    decisionLogs,
    evalTimeoutMs,
    maxInputDepth,
    maxCollectionSize,
    shutdownGraceMs,
    logLevel,
    workers,
    ...(logFormat && { logFormat }),
  });
}
