/**
 * The only reader of the environment for the greeter. Every variable is validated once;
 * all problems are reported together and each names its variable.
 */
import { existsSync } from "node:fs";
import {
  ConfigError,
  type LogFormat,
  readAddr,
  readLogFormat,
  readWholeNumber,
} from "@quintet/kit";

export interface GreeterConfig {
  /** host:port the server listens on and the client dials. */
  readonly addr: string;
  /** PEM certificate and key; both set means the server speaks TLS. */
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  /** PEM CA bundle the client trusts; set means the client dials with TLS. */
  readonly tlsCa?: string;
  /** Bearer token: required from callers by the server, sent by the client. */
  readonly token?: string;
  /** How long a graceful shutdown waits for in-flight calls before cancelling them. */
  readonly shutdownGraceMs: number;
  /** Log lines as JSON or text; undefined: text on a terminal. */
  readonly logFormat?: LogFormat;
}

/** Name, meaning and default of every variable, for `--help` and the README. */
export const configTable = [
  [
    "GREETER_ADDR",
    "address (host:port) the server listens on and the CLI calls",
    "127.0.0.1:20001",
  ],
  [
    "GREETER_TLS_CERT",
    "PEM certificate file; with GREETER_TLS_KEY the server uses TLS",
    "(plaintext)",
  ],
  ["GREETER_TLS_KEY", "PEM private key file for GREETER_TLS_CERT", "(plaintext)"],
  ["GREETER_TLS_CA", "PEM CA file the client trusts; set means the client uses TLS", "(plaintext)"],
  [
    "GREETER_TOKEN",
    "bearer token; the server requires `authorization: Bearer <token>`, the client sends it",
    "(no auth)",
  ],
  ["GREETER_SHUTDOWN_GRACE_MS", "time in-flight calls get to finish on SIGTERM", "10000"],
  [
    "TZ",
    "time zone (IANA name) of the server's local hour; an unknown zone stops start-up",
    "(system zone)",
  ],
] as const;

function readFileVar(env: NodeJS.ProcessEnv, name: string, bad: string[]): string | undefined {
  const value = env[name];
  if (value === undefined || value === "") return undefined;
  if (!existsSync(value)) bad.push(`${name} names a file that does not exist: ${value}`);
  return value;
}

/**
 * Node silently falls back to UTC for a zone it does not know, so greetings would follow the
 * wrong hour; refuse it instead. The POSIX leading ":" is allowed, as Node accepts it.
 */
function checkTimeZone(env: NodeJS.ProcessEnv, bad: string[]): void {
  const value = env.TZ;
  if (value === undefined || value === "") return;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: value.replace(/^:/, "") });
  } catch {
    bad.push(`TZ is not a known time zone: ${value} (use an IANA name such as Europe/Paris)`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): GreeterConfig {
  const bad: string[] = [];
  const addr = readAddr(env, "GREETER_ADDR", "127.0.0.1:20001", bad);
  const tlsCert = readFileVar(env, "GREETER_TLS_CERT", bad);
  const tlsKey = readFileVar(env, "GREETER_TLS_KEY", bad);
  if (Boolean(tlsCert) !== Boolean(tlsKey)) {
    bad.push("GREETER_TLS_CERT and GREETER_TLS_KEY must be set together");
  }
  const tlsCa = readFileVar(env, "GREETER_TLS_CA", bad);
  const token = env.GREETER_TOKEN;
  if (token !== undefined && token !== "" && !/^[\x21-\x7e]+$/.test(token)) {
    bad.push("GREETER_TOKEN must be printable ASCII without spaces");
  }
  const shutdownGraceMs = readWholeNumber(
    env,
    "GREETER_SHUTDOWN_GRACE_MS",
    10_000,
    [0, 3_600_000],
    bad,
  );
  checkTimeZone(env, bad);
  const logFormat = readLogFormat(env, bad);
  if (bad.length > 0) throw new ConfigError(bad);
  return Object.freeze({
    addr,
    tlsCert,
    tlsKey,
    tlsCa,
    token: token || undefined,
    shutdownGraceMs,
    ...(logFormat && { logFormat }),
  });
}
