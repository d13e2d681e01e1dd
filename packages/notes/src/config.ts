/**
 * The only reader of `process.env` in the notes package. `loadConfig` validates every variable
 * once, reports all problems together and returns a frozen object.
 */
import { randomBytes } from "node:crypto";
import { type LogFormat, readLogFormat, readWholeNumber } from "@quintet/kit";
import { defaultHashThreads } from "./auth/password.js";
import { ConfigError } from "./errors.js";
import type { ConnectionLimits } from "./http/connection-limits.js";

/** Validated configuration of the notes application. */
export interface NotesConfig {
  /** Host to listen on. */
  readonly host: string;
  /** Port to listen on; 0 picks a free port. */
  readonly port: number;
  /** PostgreSQL connection URL; undefined selects embedded PGlite. */
  readonly databaseUrl: string | undefined;
  /** Data directory of the embedded PGlite database. */
  readonly dataDir: string;
  /** HMAC key of the session cookie. */
  readonly sessionSecret: string;
  /** True when the secret was generated because SESSION_SECRET was unset (development). */
  readonly sessionSecretGenerated: boolean;
  /** Lifetime of a session cookie in seconds. */
  readonly sessionMaxAgeSeconds: number;
  /** bcrypt cost factor (log2 of the rounds). */
  readonly bcryptCost: number;
  /** Failed logins allowed per email and per client address within the window. */
  readonly loginMaxFailures: number;
  /** Length of the login throttling window in seconds. */
  readonly loginWindowSeconds: number;
  /** Sign-up attempts allowed per client address within the sign-up window. */
  readonly signupMaxAttempts: number;
  /** Length of the sign-up throttling window in seconds. */
  readonly signupWindowSeconds: number;
  /** How long a throttled (429) answer is held back, in milliseconds. */
  readonly throttleDelayMs: number;
  /** Worker threads that hash passwords. */
  readonly hashThreads: number;
  /** One trusted reverse proxy hop: client address is the right-most X-Forwarded-For entry. */
  readonly trustProxy: boolean;
  /** How long a note sent after the session ended waits for its owner's next login, in seconds. */
  readonly draftMaxAgeSeconds: number;
  /** Such notes kept in all (one per user); 0 keeps none. */
  readonly maxDrafts: number;
  /** Time-outs and the per-address connection cap (see `http/connection-limits.ts`). */
  readonly connectionLimits: ConnectionLimits;
  /** pino log level. */
  readonly logLevel: string;
  /** Log lines as JSON or text; undefined: text on a terminal. */
  readonly logFormat?: LogFormat;
  /** True when NODE_ENV is `production`. */
  readonly production: boolean;
}

/** One row of the configuration table printed by `--help` and the README. */
export interface ConfigVariable {
  readonly name: string;
  readonly meaning: string;
  readonly default: string;
}

/** Every environment variable the package reads, with its meaning and default. */
export const configTable: readonly ConfigVariable[] = Object.freeze([
  {
    name: "NOTES_ADDR",
    meaning: "host:port to listen on (port 0 = any free port)",
    default: "127.0.0.1:8080",
  },
  { name: "DATABASE_URL", meaning: "PostgreSQL URL; unset = embedded PGlite", default: "(unset)" },
  {
    name: "NOTES_DATA_DIR",
    meaning: "data directory of the embedded PGlite database",
    default: "./.data/notes",
  },
  {
    name: "SESSION_SECRET",
    meaning: "HMAC-SHA256 key of the session cookie, at least 16 characters",
    default: "generated per start in development; required when NODE_ENV=production",
  },
  { name: "NODE_ENV", meaning: "`production` makes SESSION_SECRET mandatory", default: "(unset)" },
  { name: "NOTES_SESSION_MAX_AGE", meaning: "session lifetime in seconds", default: "86400" },
  {
    name: "NOTES_BCRYPT_COST",
    meaning: "bcrypt cost factor for new password hashes (4-15)",
    default: "10",
  },
  {
    name: "NOTES_LOGIN_MAX_FAILURES",
    meaning: "failed logins allowed per email and per client address in the window",
    default: "10",
  },
  { name: "NOTES_LOGIN_WINDOW", meaning: "login throttling window in seconds", default: "600" },
  {
    name: "NOTES_SIGNUP_MAX_ATTEMPTS",
    meaning:
      "sign-up attempts allowed per client address in the window (each one that reaches the database)",
    default: "10",
  },
  { name: "NOTES_SIGNUP_WINDOW", meaning: "sign-up throttling window in seconds", default: "3600" },
  {
    name: "NOTES_THROTTLE_DELAY_MS",
    meaning:
      "milliseconds a throttled (429) login or sign-up answer, and a refused connection's 503, is held back (0-10000)",
    default: "1000",
  },
  {
    name: "NOTES_HASH_THREADS",
    meaning: "worker threads that hash passwords, off the event loop (1-64)",
    default: "CPU cores minus 1, at least 1",
  },
  {
    name: "NOTES_TRUST_PROXY",
    meaning:
      "one trusted reverse proxy in front (true/false): the client is the X-Forwarded-For entry it appended (the right-most)",
    default: "false",
  },
  {
    name: "NOTES_DRAFT_MAX_AGE",
    meaning:
      "seconds a note sent after its session ended is kept for its writer's next login in that browser (60-86400)",
    default: "900",
  },
  {
    name: "NOTES_MAX_DRAFTS",
    meaning: "such kept notes in memory in all, one per user, oldest dropped first (0 = keep none)",
    default: "500",
  },
  {
    name: "NOTES_HEADERS_TIMEOUT_MS",
    meaning: "milliseconds a client has to send all of a request's headers (100-600000); then 408",
    default: "10000",
  },
  {
    name: "NOTES_REQUEST_TIMEOUT_MS",
    meaning:
      "milliseconds a client has to send a whole request, body included (100-600000, at least the headers time-out); then 408",
    default: "30000",
  },
  {
    name: "NOTES_BODY_IDLE_TIMEOUT_MS",
    meaning:
      "milliseconds without a byte in the middle of a request before the connection is answered 408 and closed (100-600000)",
    default: "10000",
  },
  {
    name: "NOTES_KEEP_ALIVE_TIMEOUT_MS",
    meaning: "milliseconds an idle keep-alive connection stays open (100-600000)",
    default: "5000",
  },
  {
    name: "NOTES_MAX_CONNECTIONS_PER_ADDRESS",
    meaning:
      "open connections allowed per client address, IPv6 per /64 (0 = no cap); more are answered 503 and closed",
    default: "32; 0 when NOTES_TRUST_PROXY=true (all connections then come from the proxy)",
  },
  {
    name: "NOTES_LOG_LEVEL",
    meaning: "log level: fatal, error, warn, info, debug, trace, silent",
    default: "info",
  },
]);

const LOG_LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);
const MIN_SECRET_LENGTH = 16;

/** Parses `host:port` (IPv6 hosts in brackets). */
function readAddr(env: NodeJS.ProcessEnv, bad: string[]): { host: string; port: number } {
  const raw = env.NOTES_ADDR ?? "127.0.0.1:8080";
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(raw);
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || port > 65535) {
    bad.push(`NOTES_ADDR: expected host:port (e.g. 127.0.0.1:8080), got "${raw}"`);
    return { host: "127.0.0.1", port: 8080 };
  }
  return { host: match[1] ?? match[2] ?? "127.0.0.1", port };
}

/** Reads a true/false variable. */
function readBool(env: NodeJS.ProcessEnv, name: string, bad: string[]): boolean {
  const raw = (env[name] ?? "").trim().toLowerCase();
  if (raw === "" || raw === "false" || raw === "0") return false;
  if (raw === "true" || raw === "1") return true;
  bad.push(`${name}: expected true or false, got "${env[name]}"`);
  return false;
}

/** Reads SESSION_SECRET, generating one in development. */
function readSecret(
  env: NodeJS.ProcessEnv,
  production: boolean,
  bad: string[],
): { secret: string; generated: boolean } {
  const raw = env.SESSION_SECRET;
  if (raw === undefined || raw === "") {
    if (production) {
      bad.push("SESSION_SECRET: required when NODE_ENV=production (the session signing key)");
    }
    return { secret: randomBytes(32).toString("base64url"), generated: true };
  }
  if (raw.length < MIN_SECRET_LENGTH) {
    bad.push(`SESSION_SECRET: must be at least ${MIN_SECRET_LENGTH} characters long`);
  }
  return { secret: raw, generated: false };
}

const TIMEOUT_RANGE: [number, number] = [100, 600_000];

/** Reads the time-outs and the connection cap; behind a proxy the cap is off by default. */
function readConnectionLimits(
  env: NodeJS.ProcessEnv,
  trustProxy: boolean,
  bad: string[],
): ConnectionLimits {
  const limits: ConnectionLimits = {
    headersTimeoutMs: readWholeNumber(env, "NOTES_HEADERS_TIMEOUT_MS", 10_000, TIMEOUT_RANGE, bad),
    requestTimeoutMs: readWholeNumber(env, "NOTES_REQUEST_TIMEOUT_MS", 30_000, TIMEOUT_RANGE, bad),
    bodyIdleTimeoutMs: readWholeNumber(
      env,
      "NOTES_BODY_IDLE_TIMEOUT_MS",
      10_000,
      TIMEOUT_RANGE,
      bad,
    ),
    keepAliveTimeoutMs: readWholeNumber(
      env,
      "NOTES_KEEP_ALIVE_TIMEOUT_MS",
      5_000,
      TIMEOUT_RANGE,
      bad,
    ),
    maxConnectionsPerAddress: readWholeNumber(
      env,
      "NOTES_MAX_CONNECTIONS_PER_ADDRESS",
      trustProxy ? 0 : 32,
      [0, 100_000],
      bad,
    ),
  };
  // Node refuses a headers time-out longer than the request's, and it would mean nothing.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    bad.push(
      `NOTES_HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed NOTES_REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`,
    );
  }
  return Object.freeze(limits);
}

/**
 * Validates the environment once. Throws a `ConfigError` naming every bad variable.
 * @example const config = loadConfig(); // reads process.env
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): NotesConfig {
  const bad: string[] = [];
  const production = env.NODE_ENV === "production";
  const { host, port } = readAddr(env, bad);
  const { secret, generated } = readSecret(env, production, bad);
  const logLevel = (env.NOTES_LOG_LEVEL ?? "info").trim() || "info";
  if (!LOG_LEVELS.has(logLevel)) {
    bad.push(`NOTES_LOG_LEVEL: expected one of ${[...LOG_LEVELS].join(", ")}, got "${logLevel}"`);
  }
  const logFormat = readLogFormat(env, bad);
  const trustProxy = readBool(env, "NOTES_TRUST_PROXY", bad);
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    bad.push("DATABASE_URL: expected a postgres:// or postgresql:// URL");
  }
  const config: NotesConfig = {
    host,
    port,
    databaseUrl,
    dataDir: env.NOTES_DATA_DIR?.trim() || "./.data/notes",
    sessionSecret: secret,
    sessionSecretGenerated: generated,
    sessionMaxAgeSeconds: readWholeNumber(env, "NOTES_SESSION_MAX_AGE", 86400, [60, 31536000], bad),
    bcryptCost: readWholeNumber(env, "NOTES_BCRYPT_COST", 10, [4, 15], bad),
    loginMaxFailures: readWholeNumber(env, "NOTES_LOGIN_MAX_FAILURES", 10, [1, 1000000], bad),
    loginWindowSeconds: readWholeNumber(env, "NOTES_LOGIN_WINDOW", 600, [1, 86400], bad),
    signupMaxAttempts: readWholeNumber(env, "NOTES_SIGNUP_MAX_ATTEMPTS", 10, [1, 1000000], bad),
    signupWindowSeconds: readWholeNumber(env, "NOTES_SIGNUP_WINDOW", 3600, [1, 86400], bad),
    throttleDelayMs: readWholeNumber(env, "NOTES_THROTTLE_DELAY_MS", 1000, [0, 10000], bad),
    hashThreads: readWholeNumber(env, "NOTES_HASH_THREADS", defaultHashThreads(), [1, 64], bad),
    trustProxy,
    draftMaxAgeSeconds: readWholeNumber(env, "NOTES_DRAFT_MAX_AGE", 900, [60, 86400], bad),
    maxDrafts: readWholeNumber(env, "NOTES_MAX_DRAFTS", 500, [0, 100_000], bad),
    connectionLimits: readConnectionLimits(env, trustProxy, bad),
    logLevel,
    production,
    ...(logFormat && { logFormat }),
  };
  if (bad.length > 0) throw new ConfigError(bad);
  return Object.freeze(config);
}
