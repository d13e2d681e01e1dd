/**
 * OPA's configuration file (`rego run --config-file`, YAML or JSON) with `--set` and
 * `--set-file` overrides applied, read and validated once at start-up. Every problem names
 * its key (OPA's own words where OPA has them, e.g. `invalid configuration for bundle "b":
 * service name "x" not found`); the server does not start with an invalid configuration.
 * Keys OPA knows that this server does not implement are refused rather than ignored, so a
 * configuration never silently means less than it says.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "@quintet/kit";
import { parse as parseYaml } from "yaml";
import {
  type KeyConfig,
  KeysConfigError,
  parseKeysConfig,
  UnknownKeyIdError,
  type VerificationConfig,
  verificationConfigFor,
} from "../bundle/keys-config.js";
import { applySetFileOverrides, applySetOverrides } from "./config-overrides.js";
import { type DecisionLogsConfig, parseDecisionLogsConfig } from "./decision-logs/config.js";

/** The `decision_logs` section through its own parser, its errors as configuration errors. */
function decisionLogsSection(
  raw: unknown,
  serviceNames: readonly string[],
): DecisionLogsConfig | undefined {
  try {
    return parseDecisionLogsConfig(raw, serviceNames);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigFileError(e.message);
    throw e;
  }
}

/** A configuration that cannot be used; the message names the key. */
export class ConfigFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigFileError";
  }
}

/** A control-plane service (`services`). */
export interface ServiceConfig {
  readonly name: string;
  /** Base URL, without a trailing slash. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** `credentials.bearer`: a token, or a file read before every request. */
  readonly bearer?: {
    readonly token?: string;
    readonly tokenPath?: string;
    readonly scheme: string;
  };
  /** How long to wait for response headers (`response_header_timeout_seconds`, 10). */
  readonly responseHeaderTimeoutMs: number;
  /** PEM text of `tls.ca_cert`, trusted in addition to the system's CAs. */
  readonly caCert?: string;
  readonly allowInsecureTls: boolean;
}

/** A bundle to download (`bundles.<name>`). */
export interface BundleSourceConfig {
  readonly name: string;
  readonly service: string;
  /** Path below the service URL (`bundles/<name>` by default). */
  readonly resource: string;
  readonly persist: boolean;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** `polling.long_polling_timeout_seconds`: long-poll a service that supports it. */
  readonly longPollingTimeoutSeconds?: number;
  /**
   * How the bundle's signatures are checked; present when the bundle must be verified
   * (`signing` given, or `keys` configured: then the token's `kid` picks the key).
   */
  readonly verification?: VerificationConfig;
}

/** The `status` section. */
export interface StatusConfig {
  readonly service?: string;
  readonly console: boolean;
  readonly partitionName?: string;
}

/** The validated configuration. */
export interface RuntimeConfig {
  /** The document as written plus overrides (for `GET /v1/config`, see `publicConfig`). */
  readonly raw: Readonly<Record<string, unknown>>;
  readonly services: ReadonlyMap<string, ServiceConfig>;
  /** `labels` as configured (the status plugin adds `id` and `version`). */
  readonly labels: Readonly<Record<string, string>>;
  readonly bundles: readonly BundleSourceConfig[];
  /** `keys`, through the bundle signing code's own parser. */
  readonly keys: ReadonlyMap<string, KeyConfig>;
  readonly status?: StatusConfig;
  /** `decision_logs`, kept as written for the decision-log uploader. */
  readonly decisionLogs?: Readonly<Record<string, unknown>>;
  /** `decision_logs` validated; undefined when decision logging stays off. */
  readonly decisionLogsPlugin?: DecisionLogsConfig;
  /** `decision_logs.console`, when set. */
  readonly decisionLogsConsole?: boolean;
  /** `default_decision` as a path below `data`, when set. */
  readonly defaultDecision?: readonly string[];
  /** `server.decoding.max_length`, when set. */
  readonly maxBodyBytes?: number;
  /** `server.workers` (evaluation threads; 0: the main thread), when set. */
  readonly serverWorkers?: number;
  /** Where persisted bundles live (`persistence_directory`, default `<cwd>/.opa`). */
  readonly persistenceDirectory: string;
}

/** OPA's polling defaults, in seconds. */
export const DEFAULT_MIN_DELAY_SECONDS = 60;
export const DEFAULT_MAX_DELAY_SECONDS = 120;
/** OPA's default `response_header_timeout_seconds`. */
export const DEFAULT_RESPONSE_HEADER_TIMEOUT_SECONDS = 10;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fail(message: string): never {
  throw new ConfigFileError(message);
}

function optionalObj(v: unknown, key: string): Obj | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) fail(`${key}: must be an object`);
  return v;
}

function optionalString(v: unknown, key: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") fail(`${key}: must be a string`);
  return v;
}

function optionalBool(v: unknown, key: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") fail(`${key}: must be true or false`);
  return v;
}

function optionalSeconds(v: unknown, key: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    fail(`${key}: must be a number of seconds (0 or more)`);
  }
  return v;
}

/** Reads the file (YAML or JSON: JSON is YAML) and applies the overrides. */
export function readConfigDocument(
  file: string | undefined,
  overrides: { set?: readonly string[]; setFile?: readonly string[] },
  readText: (path: string) => string = (p) => readFileSync(p, "utf8"),
): Obj {
  let doc: Obj = {};
  if (file !== undefined) {
    let text: string;
    try {
      text = readText(file);
    } catch (e) {
      fail(`--config-file ${file}: ${(e as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = parseYaml(text);
    } catch (e) {
      fail(`--config-file ${file}: ${(e as Error).message.split("\n")[0]}`);
    }
    if (parsed !== null && parsed !== undefined && !isObj(parsed)) {
      fail(`--config-file ${file}: the configuration must be an object`);
    }
    doc = (parsed as Obj | null) ?? {};
  }
  applySetOverrides(doc, overrides.set ?? []);
  applySetFileOverrides(doc, overrides.setFile ?? [], (path) => {
    try {
      return readText(path);
    } catch (e) {
      fail(`--set-file ${path}: ${(e as Error).message}`);
    }
  });
  return doc;
}

/** `services` in OPA's list form (`[{name, ...}]`) or map form (`{name: {...}}`). */
function serviceEntries(v: unknown): [string, Obj][] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) {
    return v.map((entry, i) => {
      if (!isObj(entry)) fail(`services[${i}]: must be an object`);
      const name = entry.name;
      if (typeof name !== "string" || name === "") fail(`services[${i}].name: must be set`);
      return [name, entry];
    });
  }
  if (!isObj(v)) fail("services: must be a list or an object");
  return Object.entries(v).map(([name, entry]) => {
    if (!isObj(entry)) fail(`services.${name}: must be an object`);
    return [name, entry];
  });
}

function parseService(name: string, s: Obj, readText: (p: string) => string): ServiceConfig {
  const key = `services.${name}`;
  const url = optionalString(s.url, `${key}.url`);
  if (!url) fail(`${key}.url: must be set`);
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    fail(`${key}.url: not a valid URL: ${url}`);
  }
  if (parsedUrl.protocol !== "http:" && parsedUrl.protocol !== "https:") {
    fail(`${key}.url: only http and https services are supported: ${url}`);
  }
  if (s.type !== undefined && s.type !== null && s.type !== "") {
    fail(`${key}.type: "${String(s.type)}" services are not supported`);
  }
  const headersObj = optionalObj(s.headers, `${key}.headers`) ?? {};
  const headers: Record<string, string> = {};
  for (const [h, v] of Object.entries(headersObj)) {
    if (typeof v !== "string") fail(`${key}.headers.${h}: must be a string`);
    headers[h] = v;
  }
  const credentials = optionalObj(s.credentials, `${key}.credentials`) ?? {};
  let bearer: ServiceConfig["bearer"];
  for (const [kind, value] of Object.entries(credentials)) {
    if (kind !== "bearer") fail(`${key}.credentials.${kind}: not supported (only bearer)`);
    const b = optionalObj(value, `${key}.credentials.bearer`) ?? {};
    const token = optionalString(b.token, `${key}.credentials.bearer.token`);
    const tokenPath = optionalString(b.token_path, `${key}.credentials.bearer.token_path`);
    if (token !== undefined && tokenPath !== undefined) {
      fail(`${key}.credentials.bearer: token and token_path are exclusive`);
    }
    const scheme = optionalString(b.scheme, `${key}.credentials.bearer.scheme`) ?? "Bearer";
    bearer = { token, tokenPath, scheme };
  }
  const timeout =
    optionalSeconds(s.response_header_timeout_seconds, `${key}.response_header_timeout_seconds`) ??
    DEFAULT_RESPONSE_HEADER_TIMEOUT_SECONDS;
  const tls = optionalObj(s.tls, `${key}.tls`) ?? {};
  const caPath = optionalString(tls.ca_cert, `${key}.tls.ca_cert`);
  let caCert: string | undefined;
  if (caPath !== undefined) {
    try {
      caCert = readText(caPath);
    } catch (e) {
      fail(`${key}.tls.ca_cert: ${(e as Error).message}`);
    }
  }
  return {
    name,
    url: url.replace(/\/+$/, ""),
    headers,
    bearer,
    responseHeaderTimeoutMs: timeout * 1000,
    caCert,
    allowInsecureTls: optionalBool(s.allow_insecure_tls, `${key}.allow_insecure_tls`) ?? false,
  };
}

/** The `keys` section, read by the same code that verifies bundles (OPA's messages). */
function parseKeys(v: unknown): ReadonlyMap<string, KeyConfig> {
  try {
    return parseKeysConfig(v);
  } catch (e) {
    if (e instanceof KeysConfigError) fail(e.message);
    throw e;
  }
}

/**
 * `bundles.<name>.signing` checked against the keys; an unknown key ID is reported as OPA
 * reports it, inside the bundle's `invalid configuration` message.
 */
function parseSigning(
  signing: Obj,
  keys: ReadonlyMap<string, KeyConfig>,
  key: string,
  where: string,
): VerificationConfig {
  try {
    return verificationConfigFor(signing, keys, `${key}.signing`);
  } catch (e) {
    if (e instanceof UnknownKeyIdError) fail(`${where}: ${e.message}`);
    if (e instanceof KeysConfigError) fail(e.message);
    throw e;
  }
}

/** OPA: an empty service name means the first service; an unknown one is refused. */
function serviceFor(
  wanted: string | undefined,
  services: ReadonlyMap<string, ServiceConfig>,
  where: string,
): string {
  if (!wanted) {
    const first = services.keys().next();
    if (first.done) fail(`${where}: service name "" not found`);
    return first.value;
  }
  if (!services.has(wanted)) fail(`${where}: service name "${wanted}" not found`);
  return wanted;
}

function parseBundle(
  name: string,
  b: Obj,
  services: ReadonlyMap<string, ServiceConfig>,
  keys: ReadonlyMap<string, KeyConfig>,
): BundleSourceConfig {
  const where = `invalid configuration for bundle "${name}"`;
  const key = `bundles.${name}`;
  const resource = optionalString(b.resource, `${key}.resource`) || `bundles/${name}`;
  if (resource.startsWith("file://")) fail(`${key}.resource: file:// bundles are not supported`);
  const trigger = optionalString(b.trigger, `${key}.trigger`) ?? "periodic";
  if (trigger !== "periodic") {
    fail(`${where}: invalid trigger mode "${trigger}" (only "periodic" is supported)`);
  }
  const polling = optionalObj(b.polling, `${key}.polling`) ?? {};
  const min = optionalSeconds(polling.min_delay_seconds, `${key}.polling.min_delay_seconds`);
  const max = optionalSeconds(polling.max_delay_seconds, `${key}.polling.max_delay_seconds`);
  if (min !== undefined && max === undefined) {
    fail(`${where}: polling configuration missing 'max_delay_seconds'`);
  }
  if (max !== undefined && min === undefined) {
    fail(`${where}: polling configuration missing 'min_delay_seconds'`);
  }
  if (min !== undefined && max !== undefined && max < min) {
    fail(`${where}: max polling delay must be >= min polling delay`);
  }
  const longPolling = optionalSeconds(
    polling.long_polling_timeout_seconds,
    `${key}.polling.long_polling_timeout_seconds`,
  );
  const signing = optionalObj(b.signing, `${key}.signing`);
  // OPA: with keys configured, every bundle is verified (key chosen by the token's kid).
  const verification =
    signing || keys.size > 0 ? parseSigning(signing ?? {}, keys, key, where) : undefined;
  return {
    name,
    service: serviceFor(optionalString(b.service, `${key}.service`), services, where),
    resource,
    persist: optionalBool(b.persist, `${key}.persist`) ?? false,
    minDelayMs: (min ?? DEFAULT_MIN_DELAY_SECONDS) * 1000,
    maxDelayMs: (max ?? DEFAULT_MAX_DELAY_SECONDS) * 1000,
    longPollingTimeoutSeconds: longPolling,
    verification,
  };
}

function parseStatus(v: unknown, services: ReadonlyMap<string, ServiceConfig>) {
  const s = optionalObj(v, "status");
  if (!s) return undefined;
  const console = optionalBool(s.console, "status.console") ?? false;
  let service = optionalString(s.service, "status.service");
  if (service && !services.has(service)) {
    fail(`invalid service name "${service}" in status`);
  }
  // OPA: without a service, status goes to the first service unless it only logs.
  if (!service && !console) service = services.keys().next().value;
  if (!service && !console) fail("status: service or console must be set");
  return {
    service,
    console,
    partitionName: optionalString(s.partition_name, "status.partition_name"),
  };
}

/** `/a/b` or `a/b` → ["a", "b"]. */
function decisionPath(v: unknown, key: string): string[] | undefined {
  const text = optionalString(v, key);
  if (text === undefined) return undefined;
  if (!/^\/?[^/\s]+(\/[^/\s]+)*$/.test(text)) fail(`${key}: not a path like /a/b: ${text}`);
  return text.replace(/^\//, "").split("/");
}

/** Sections OPA knows that this server does not implement: refused by name. */
const UNSUPPORTED = ["discovery", "bundle", "nd_builtin_cache", "distributed_tracing"];

/** Validates the document; `cwd` anchors the default persistence directory. */
export function parseRuntimeConfig(
  raw: Obj,
  options: { cwd: string; readText?: (path: string) => string },
): RuntimeConfig {
  const readText = options.readText ?? ((p: string) => readFileSync(p, "utf8"));
  for (const key of UNSUPPORTED) {
    if (raw[key] !== undefined && raw[key] !== null) fail(`${key}: not supported by this server`);
  }
  for (const name of Object.keys(optionalObj(raw.plugins, "plugins") ?? {})) {
    fail(`plugins.${name}: plugin "${name}" is not registered`);
  }
  const services = new Map<string, ServiceConfig>();
  for (const [name, s] of serviceEntries(raw.services)) {
    if (services.has(name)) fail(`services.${name}: defined twice`);
    services.set(name, parseService(name, s, readText));
  }
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(optionalObj(raw.labels, "labels") ?? {})) {
    if (typeof v !== "string") fail(`labels.${k}: must be a string`);
    labels[k] = v;
  }
  const keys = parseKeys(raw.keys);
  const bundles = Object.entries(optionalObj(raw.bundles, "bundles") ?? {})
    .filter(([, b]) => b !== null)
    .map(([name, b]) => {
      if (!isObj(b)) fail(`bundles.${name}: must be an object`);
      return parseBundle(name, b, services, keys);
    });
  const decisionLogs = optionalObj(raw.decision_logs, "decision_logs");
  const server = optionalObj(raw.server, "server");
  const decoding = optionalObj(server?.decoding, "server.decoding");
  const workers = server?.workers;
  if (
    workers !== undefined &&
    !(Number.isSafeInteger(workers) && (workers as number) >= 0 && (workers as number) <= 9999)
  ) {
    fail("server.workers: must be a whole number from 0 to 9999");
  }
  const maxLength = decoding?.max_length;
  if (maxLength !== undefined && !(Number.isSafeInteger(maxLength) && (maxLength as number) > 0)) {
    fail("server.decoding.max_length: must be a whole number of bytes above 0");
  }
  return {
    raw,
    services,
    labels,
    bundles,
    keys,
    status: parseStatus(raw.status, services),
    decisionLogs,
    decisionLogsConsole: optionalBool(decisionLogs?.console, "decision_logs.console"),
    decisionLogsPlugin: decisionLogsSection(raw.decision_logs, [...services.keys()]),
    defaultDecision: decisionPath(raw.default_decision, "default_decision"),
    maxBodyBytes: maxLength as number | undefined,
    serverWorkers: workers as number | undefined,
    persistenceDirectory:
      optionalString(raw.persistence_directory, "persistence_directory") ??
      join(options.cwd, ".opa"),
  };
}

/**
 * The configuration `GET /v1/config` shows: service credentials and key material removed,
 * `labels` with `id` and `version`, the default decisions filled in (as OPA answers).
 */
export function publicConfig(
  config: RuntimeConfig | undefined,
  labels: Readonly<Record<string, string>>,
): Obj {
  const out: Obj = structuredClone(config?.raw ?? {}) as Obj;
  if (Array.isArray(out.services)) {
    for (const s of out.services) if (isObj(s)) delete s.credentials;
  } else if (isObj(out.services)) {
    for (const s of Object.values(out.services)) if (isObj(s)) delete s.credentials;
  }
  if (isObj(out.keys)) {
    for (const k of Object.values(out.keys)) {
      if (isObj(k)) {
        delete k.key;
        delete k.private_key;
      }
    }
  }
  out.labels = { ...labels };
  out.default_decision ??= "/system/main";
  out.default_authorization_decision ??= "/system/authz/allow";
  return out;
}
