/**
 * `http.send`'s request object read into settings, with OPA's checks and messages, and the
 * key that identifies equal requests in the caches.
 */

import { DurationError, parseGoDuration } from "@quintet/gostd/time";
import { isNumber } from "../value/number.js";
import { canonicalKey, RegoObject, typeName, type Value } from "../value/value.js";
import { marshalJSON } from "./encoding.js";
import type { ClientRequest } from "./http-send-client.js";

/** String-valued TLS keys copied as they are, and the setting each fills. */
const TLS_STRING_KEYS = new Map<
  string,
  Exclude<keyof HttpSendTls, "useSystemCerts" | "insecureSkipVerify">
>([
  ["tls_ca_cert_file", "caCertFile"],
  ["tls_ca_cert_env_variable", "caCertEnv"],
  ["tls_client_cert", "clientCert"],
  ["tls_client_key", "clientKey"],
  ["tls_client_cert_file", "clientCertFile"],
  ["tls_client_key_file", "clientKeyFile"],
  ["tls_client_cert_env_variable", "clientCertEnv"],
  ["tls_client_key_env_variable", "clientKeyEnv"],
  ["tls_server_name", "serverName"],
]);

/** Keys whose value must be a string (OPA checks them together). */
const STRING_KEYS = new Set([
  "method",
  "url",
  "raw_body",
  "tls_ca_cert",
  ...TLS_STRING_KEYS.keys(),
]);

/** Every key the request object may have. */
const REQUEST_KEYS = new Set([
  ...STRING_KEYS,
  "body",
  "headers",
  "enable_redirect",
  "force_json_decode",
  "force_yaml_decode",
  "tls_use_system_certs",
  "tls_insecure_skip_verify",
  "timeout",
  "cache",
  "force_cache",
  "force_cache_duration_seconds",
  "raise_error",
  "caching_mode",
  "max_retry_attempts",
  "cache_ignored_headers",
]);

/** OPA's default request timeout; HTTP_SEND_TIMEOUT (a Go duration) overrides it. */
const DEFAULT_TIMEOUT_MS = 5000;

/** A request that cannot be made as written: OPA's eval_http_send_internal_error. */
export class HttpSendRequestError extends Error {
  constructor(
    message: string,
    /** True for an operand type error (eval_type_error when raised). */
    readonly typeError = false,
  ) {
    super(message);
    this.name = "HttpSendRequestError";
  }
}

/** The request's TLS settings as written (files and variables are read when it is sent). */
export interface HttpSendTls {
  useSystemCerts?: boolean;
  caCert?: string;
  caCertFile?: string;
  caCertEnv?: string;
  clientCert?: string;
  clientKey?: string;
  clientCertFile?: string;
  clientKeyFile?: string;
  clientCertEnv?: string;
  clientKeyEnv?: string;
  insecureSkipVerify: boolean;
  serverName?: string;
}

/** Everything `http.send` needs from its operand (TLS as written, not yet read). */
export interface HttpSendSpec extends Omit<ClientRequest, "tls"> {
  forceJsonDecode: boolean;
  forceYamlDecode: boolean;
  /** `cache` or `force_cache`: use the inter-query cache. */
  interQuery: boolean;
  /** Seconds a forced entry lives; undefined unless `force_cache`. */
  forceCacheSeconds?: number;
  tls: HttpSendTls;
}

/** `raise_error` (default true); a non-boolean is an error that is always raised. */
export function raiseErrorOf(req: RegoObject): boolean {
  const v = req.get("raise_error");
  if (v === undefined) return true;
  if (typeof v !== "boolean") throw new HttpSendRequestError("invalid value for raise_error field");
  return v;
}

/** Unknown or missing keys, with OPA's messages (an operand error). */
export function checkRequestKeys(req: RegoObject): void {
  const bad = [...req.keys()].filter((k) => typeof k !== "string" || !REQUEST_KEYS.has(k));
  if (bad.length > 0) {
    const list = bad.map((k) => JSON.stringify(k)).join(", ");
    throw new HttpSendRequestError(`invalid request parameters(s): {${list}}`, true);
  }
  const missing = ["method", "url"].filter((k) => !req.has(k));
  if (missing.length > 0) {
    const list = missing.map((k) => JSON.stringify(k)).join(", ");
    throw new HttpSendRequestError(`missing required request parameters(s): {${list}}`, true);
  }
}

/** Go's http.CanonicalHeaderKey: "content-type" → "Content-Type"; odd names stay as they are. */
export function canonicalHeaderName(name: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return name;
  return name
    .toLowerCase()
    .replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

function boolField(req: RegoObject, key: string): boolean {
  const v = req.get(key);
  if (v === undefined) return false;
  if (typeof v !== "boolean")
    throw new HttpSendRequestError(`invalid value for ${JSON.stringify(key)} field`);
  return v;
}

/** An integer operand as Go reads it; undefined when it is not one. */
function integerOf(v: Value): bigint | undefined {
  if (!isNumber(v)) return undefined;
  const text = typeof v === "bigint" ? v.toString() : String(v);
  return /^-?\d+$/.test(text) ? BigInt(text) : undefined;
}

function defaultTimeoutMs(): number {
  const env = process.env.HTTP_SEND_TIMEOUT;
  if (env === undefined || env === "") return DEFAULT_TIMEOUT_MS;
  try {
    return Number(parseGoDuration(env) / 1_000_000n);
  } catch {
    throw new HttpSendRequestError(`invalid value for HTTP_SEND_TIMEOUT: ${env}`);
  }
}

/** `timeout`: nanoseconds as a number or digits, or a Go duration ("500ms", "2s"). */
function timeoutOf(v: Value): number {
  if (isNumber(v)) {
    const n = integerOf(v);
    if (n === undefined)
      throw new HttpSendRequestError(`invalid timeout number value ${String(v)}, must be int64`);
    return Number(n / 1_000_000n) + (n % 1_000_000n > 0n ? 1 : 0);
  }
  if (typeof v === "string") {
    if (/^[+-]?\d+$/.test(v)) return Math.ceil(Number(v) / 1e6);
    try {
      const ns = parseGoDuration(v);
      return Number(ns / 1_000_000n) + (ns % 1_000_000n > 0n ? 1 : 0);
    } catch (e) {
      const why = e instanceof DurationError ? e.message : String(e);
      throw new HttpSendRequestError(`invalid timeout value ${JSON.stringify(v)}: ${why}`);
    }
  }
  throw new HttpSendRequestError(
    `operand 1 'timeout' must be one of {string, number} but got ${typeName(v)}`,
    true,
  );
}

function headersOf(v: Value): [string, string][] {
  if (!(v instanceof RegoObject)) throw new HttpSendRequestError("invalid type for headers key");
  const out: [string, string][] = [];
  for (const [k, x] of v.sortedEntries()) {
    if (typeof x !== "string") {
      throw new HttpSendRequestError(
        `invalid type for headers value ${JSON.stringify(marshalJSON(x))}`,
      );
    }
    out.push([canonicalHeaderName(String(k)), x]);
  }
  return out;
}

/** The settings of a request object already checked by `checkRequestKeys`. */
export function parseRequest(req: RegoObject): HttpSendSpec {
  const spec: HttpSendSpec = {
    method: "",
    url: "",
    headers: [],
    body: "",
    timeoutMs: defaultTimeoutMs(),
    followRedirects: false,
    forceJsonDecode: boolField(req, "force_json_decode"),
    forceYamlDecode: boolField(req, "force_yaml_decode"),
    interQuery: false,
    maxRetries: 0,
    tls: { insecureSkipVerify: false },
  };
  let body: string | undefined;
  let rawBody: string | undefined;
  const str = (key: string): string => req.get(key) as string;
  for (const [k, v] of req.sortedEntries()) {
    const key = k as string;
    if (STRING_KEYS.has(key) && typeof v !== "string") {
      throw new HttpSendRequestError(`${JSON.stringify(key)} must be a string`);
    }
    switch (key) {
      case "method":
        spec.method = str(key).toUpperCase();
        break;
      case "url":
        spec.url = str(key);
        break;
      case "raw_body":
        rawBody = str(key);
        break;
      case "body":
        body = marshalJSON(v);
        break;
      case "headers":
        spec.headers = headersOf(v);
        break;
      case "enable_redirect":
        spec.followRedirects = boolField(req, key);
        break;
      case "timeout":
        spec.timeoutMs = timeoutOf(v);
        break;
      case "tls_use_system_certs":
        spec.tls.useSystemCerts = boolField(req, key);
        break;
      case "tls_insecure_skip_verify":
        spec.tls.insecureSkipVerify = boolField(req, key);
        break;
      case "tls_ca_cert":
        spec.tls.caCert = str(key).replaceAll("\\n", "\n");
        break;
      case "max_retry_attempts": {
        const n = integerOf(v);
        if (n === undefined || n < 0n) {
          throw new HttpSendRequestError(
            `invalid value ${marshalJSON(v)} for field "max_retry_attempts"`,
          );
        }
        spec.maxRetries = Number(n);
        break;
      }
      case "caching_mode":
        if (typeof v !== "string")
          throw new HttpSendRequestError('invalid value for "caching_mode" field');
        if (v !== "serialized" && v !== "deserialized") {
          throw new HttpSendRequestError(`invalid value specified for "caching_mode" field: ${v}`);
        }
        break;
      case "cache_ignored_headers":
        if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
          throw new HttpSendRequestError('invalid value for "cache_ignored_headers" field');
        }
        break;
      default: {
        const setting = TLS_STRING_KEYS.get(key);
        if (setting !== undefined) spec.tls[setting] = str(key);
        // cache, force_cache, force_cache_duration_seconds, raise_error and the decode
        // flags are read below or by the caller.
        break;
      }
    }
  }
  spec.body = rawBody ?? body ?? "";
  spec.interQuery = boolField(req, "cache");
  if (boolField(req, "force_cache")) {
    spec.interQuery = true;
    const d = req.get("force_cache_duration_seconds");
    if (d === undefined) {
      throw new HttpSendRequestError(
        "'force_cache' set but 'force_cache_duration_seconds' parameter is missing",
      );
    }
    const n = integerOf(d);
    if (n === undefined || n < -(2n ** 31n) || n >= 2n ** 31n) {
      throw new HttpSendRequestError(
        `strconv.ParseInt: parsing ${JSON.stringify(marshalJSON(d))}: invalid syntax`,
      );
    }
    spec.forceCacheSeconds = Number(n);
  }
  try {
    new URL(spec.url);
  } catch {
    throw new HttpSendRequestError(`parse ${JSON.stringify(spec.url)}: invalid URL`);
  }
  return spec;
}

/**
 * The cache key of a request: the request itself, with the headers named in
 * `cache_ignored_headers` left out (so requests differing only in them share an entry).
 */
export function requestKey(req: RegoObject): string {
  const key = RegoObject.fromEntries(req.entries());
  const ignored = req.get("cache_ignored_headers");
  const headers = req.get("headers");
  if (Array.isArray(ignored) && headers instanceof RegoObject) {
    const kept = RegoObject.fromEntries(headers.entries());
    for (const name of ignored) kept.delete(name);
    key.set("headers", kept);
  }
  key.set("cache_ignored_headers", null);
  return `http.send:${canonicalKey(key)}`;
}
