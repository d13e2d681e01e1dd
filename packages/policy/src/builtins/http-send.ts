/**
 * `http.send`. Evaluation is synchronous, so the builtin only reads answers: from the
 * query's own record of calls made (and, with `cache`/`force_cache`, a fresh inter-query
 * entry). A request not answered yet stops the round with a pending call that the
 * asynchronous driver performs (see builtins/external-calls.ts); the synchronous entry points
 * have no driver and fail with a message saying so.
 */
import { readFile } from "node:fs/promises";
import { BuiltinError, BuiltinTypeError } from "../errors.js";
import { readJSON } from "../value/json-reader.js";
import { RegoObject, type Value } from "../value/value.js";
import { asObject } from "./args.js";
import type { ExternalCall, ExternalCalls } from "./external-calls.js";
import {
  CACHEABLE_STATUS_CODES,
  type CachedResponse,
  canStore,
  expiryFromHeaders,
  type InterQueryCache,
} from "./http-send-cache.js";
import {
  type ClientResponse,
  NetworkError,
  performRequest,
  systemRoots,
  type TlsSettings,
} from "./http-send-client.js";
import {
  checkRequestKeys,
  HttpSendRequestError,
  type HttpSendSpec,
  parseRequest,
  raiseErrorOf,
  requestKey,
} from "./http-send-request.js";
import type { BuiltinContext, BuiltinDef } from "./registry-types.js";
import { readYAML } from "./yaml-codec.js";

const NAME = "http.send";

/** What one request came to: a response value, or a failure in OPA's two kinds. */
type Outcome =
  | { value: Value }
  | {
      code: "eval_http_send_network_error" | "eval_http_send_internal_error";
      message: string;
      raised: string;
    };

/** The message of the synchronous entry points, which cannot wait for the network. */
export const SYNC_HTTP_MESSAGE =
  "http.send: the request needs the network, which synchronous evaluation cannot wait for (use PolicyEngine.queryAsync or evalRefAsync)";

/** Go's mime.ParseMediaType check for a JSON response. */
function isJsonType(headers: Map<string, string[]>): boolean {
  const ct = headers.get("content-type")?.[0];
  if (ct === undefined) return false;
  const media = (ct.split(";")[0] as string).trim().toLowerCase();
  const [type, sub, extra] = media.split("/");
  if (extra !== undefined || type !== "application" || sub === undefined) return false;
  return sub === "json" || sub.endsWith("+json");
}

function isYamlType(headers: Map<string, string[]>): boolean {
  const ct = headers.get("content-type")?.[0] ?? "";
  return ct.includes("application/yaml") || ct.includes("application/x-yaml");
}

/** The response object OPA returns; a body that does not decode is null. */
export function responseValue(
  r: Pick<CachedResponse, "statusCode" | "status" | "headers" | "body">,
  forceJson: boolean,
  forceYaml: boolean,
): Value {
  const text = r.body.toString("utf8");
  let body: Value = null;
  try {
    if (forceJson || isJsonType(r.headers)) body = readJSON(text);
    else if (forceYaml || isYamlType(r.headers)) body = readYAML(text);
  } catch {
    body = null;
  }
  const headers = new RegoObject();
  for (const [name, values] of r.headers) headers.set(name, [...values]);
  return RegoObject.fromEntries([
    ["status", r.status],
    ["status_code", r.statusCode],
    ["body", body],
    ["raw_body", text],
    ["headers", headers],
  ]);
}

/** The object `raise_error: false` answers with instead of raising. */
function errorValue(code: string, message: string): Value {
  return RegoObject.fromEntries([
    ["status_code", 0],
    [
      "error",
      RegoObject.fromEntries([
        ["code", code],
        ["message", message],
      ]),
    ],
  ]);
}

function internal(message: string): Outcome {
  const text = `${NAME}: ${message}`;
  return { code: "eval_http_send_internal_error", message: text, raised: text };
}

async function readSetting(file: string | undefined, env: string | undefined): Promise<string[]> {
  const out: string[] = [];
  if (file !== undefined) out.push(await readFile(file, "utf8"));
  if (env !== undefined) {
    const v = process.env[env];
    if (v === undefined || v === "")
      throw new Error(`no CA certificates found in environment variable ${env}`);
    out.push(v);
  }
  return out;
}

/** Reads the TLS material the request names (files, environment variables). */
async function tlsSettings(spec: HttpSendSpec): Promise<TlsSettings> {
  const t = spec.tls;
  const out: TlsSettings = { insecureSkipVerify: t.insecureSkipVerify, servername: t.serverName };
  const host = spec.headers.find(([n]) => n === "Host")?.[1];
  if (out.servername === undefined && host !== undefined) out.servername = host;
  const extra = [
    ...(t.caCert ? [t.caCert] : []),
    ...(await readSetting(t.caCertFile, t.caCertEnv)),
  ];
  if (extra.length > 0) out.ca = t.useSystemCerts ? [...systemRoots(), ...extra] : extra;
  if (t.clientCert && t.clientKey) {
    out.cert = t.clientCert;
    out.key = t.clientKey;
  } else if (t.clientCertFile && t.clientKeyFile) {
    out.cert = await readFile(t.clientCertFile, "utf8");
    out.key = await readFile(t.clientKeyFile, "utf8");
  } else if (t.clientCertEnv && t.clientKeyEnv) {
    out.cert = process.env[t.clientCertEnv] ?? "";
    out.key = process.env[t.clientKeyEnv] ?? "";
  }
  return out;
}

const USER_AGENT = "rego-http-send";

async function exchange(
  spec: HttpSendSpec,
  extraHeaders: [string, string][],
  signal: AbortSignal,
): Promise<ClientResponse> {
  const headers = [...spec.headers, ...extraHeaders];
  if (!headers.some(([n]) => n === "User-Agent")) headers.push(["User-Agent", USER_AGENT]);
  return performRequest(
    {
      method: spec.method,
      url: spec.url,
      headers,
      body: spec.body,
      timeoutMs: spec.timeoutMs,
      followRedirects: spec.followRedirects,
      tls: await tlsSettings(spec),
      maxRetries: spec.maxRetries,
    },
    signal,
  );
}

/** When a response fetched at `nowMs` expires; throws when it may not be cached. */
function expiry(spec: HttpSendSpec, headers: Map<string, string[]>, nowMs: number): number {
  if (spec.forceCacheSeconds !== undefined && spec.forceCacheSeconds > 0) {
    return nowMs + spec.forceCacheSeconds * 1000;
  }
  return expiryFromHeaders(headers);
}

/** Keeps `res` between queries when OPA would: cacheable code, storable or forced. */
function keep(
  cache: InterQueryCache,
  key: string,
  spec: HttpSendSpec,
  res: ClientResponse,
  nowMs: number,
): void {
  const forced = spec.forceCacheSeconds !== undefined && spec.forceCacheSeconds > 0;
  if (!CACHEABLE_STATUS_CODES.has(res.statusCode) || (!forced && !canStore(res.headers))) return;
  try {
    cache.insert(key, { ...res, expiresAtMs: expiry(spec, res.headers, nowMs) });
  } catch {
    // As OPA: a response whose expiry cannot be worked out is just not kept.
  }
}

/**
 * Asks the server whether a stale entry is still good (ETag / Last-Modified). Undefined
 * when it has no validators or the server answered neither 200 nor 304: then a plain
 * request follows.
 */
async function revalidate(
  cache: InterQueryCache,
  key: string,
  spec: HttpSendSpec,
  stale: CachedResponse,
  nowMs: number,
  signal: AbortSignal,
): Promise<Value | undefined> {
  const etag = stale.headers.get("etag")?.[0];
  const lastModified = stale.headers.get("last-modified")?.[0];
  cache.delete(key);
  if (etag === undefined && lastModified === undefined) return undefined;
  const validators: [string, string][] = [];
  if (etag !== undefined) validators.push(["If-None-Match", etag]);
  if (lastModified !== undefined) validators.push(["If-Modified-Since", lastModified]);
  const res = await exchange(spec, validators, signal);
  if (res.statusCode === 200) {
    keep(cache, key, spec, res, nowMs);
    return responseValue(res, spec.forceJsonDecode, spec.forceYamlDecode);
  }
  if (res.statusCode !== 304) return undefined;
  const headers = new Map(stale.headers);
  for (const [name, values] of res.headers) headers.set(name, values);
  const updated: CachedResponse = {
    ...stale,
    headers,
    expiresAtMs: expiry(spec, res.headers, nowMs),
  };
  cache.insert(key, updated);
  return responseValue(updated, spec.forceJsonDecode, spec.forceYamlDecode);
}

async function fetchOutcome(
  spec: HttpSendSpec,
  key: string,
  cache: InterQueryCache | undefined,
  nowMs: number,
  signal: AbortSignal,
): Promise<Outcome> {
  try {
    const stale = spec.interQuery ? cache?.get(key) : undefined;
    if (cache && stale) {
      const value = await revalidate(cache, key, spec, stale, nowMs, signal);
      if (value !== undefined) return { value };
    }
    const res = await exchange(spec, [], signal);
    if (spec.interQuery && cache) keep(cache, key, spec, res, nowMs);
    return { value: responseValue(res, spec.forceJsonDecode, spec.forceYamlDecode) };
  } catch (e) {
    if (signal.aborted) throw e;
    if (e instanceof NetworkError) {
      return {
        code: "eval_http_send_network_error",
        message: e.message,
        raised: `${NAME}: ${e.raised}`,
      };
    }
    return internal(
      e instanceof Error
        ? e.message.replace(
            /^ENOENT: no such file or directory, open '(.*)'$/,
            "open $1: no such file or directory",
          )
        : String(e),
    );
  }
}

/** The outcome of `req` for this query: recorded, cached between queries, or pending. */
function outcomeOf(req: RegoObject, ext: ExternalCalls): Outcome {
  const spec = parseRequest(req);
  const key = requestKey(req);
  const known = ext.outcomes.get(key) as Outcome | undefined;
  if (known !== undefined) return known;
  const nowMs = Number(ext.nowNs / 1_000_000n);
  const cache = ext.interQuery;
  if (spec.interQuery && cache) {
    const entry = cache.get(key);
    if (entry && nowMs < entry.expiresAtMs) {
      const hit: Outcome = {
        value: responseValue(entry, spec.forceJsonDecode, spec.forceYamlDecode),
      };
      // Later calls in this query see this same answer even if the entry expires meanwhile.
      ext.outcomes.set(key, hit);
      return hit;
    }
  }
  const call: ExternalCall = {
    key,
    perform: (signal) => fetchOutcome(spec, key, cache, nowMs, signal),
  };
  return ext.outcome(call) as Outcome;
}

function send(reqArg: Value, ctx: BuiltinContext): Value {
  const req = asObject(NAME, reqArg, 1);
  let raise: boolean;
  try {
    raise = raiseErrorOf(req);
  } catch (e) {
    throw new BuiltinError(`${NAME}: ${(e as Error).message}`);
  }
  let outcome: Outcome;
  try {
    checkRequestKeys(req);
    const ext = ctx.external;
    if (ext === undefined) {
      parseRequest(req);
      throw new BuiltinError(SYNC_HTTP_MESSAGE);
    }
    outcome = outcomeOf(req, ext);
  } catch (e) {
    if (!(e instanceof HttpSendRequestError)) throw e;
    if (raise) {
      const message = `${NAME}: ${e.message}`;
      throw e.typeError ? new BuiltinTypeError(message) : new BuiltinError(message);
    }
    outcome = internal(e.message);
  }
  if ("value" in outcome) return outcome.value;
  if (raise) throw new BuiltinError(outcome.raised);
  return errorValue(outcome.code, outcome.message);
}

export const httpSendBuiltin: BuiltinDef = {
  name: NAME,
  args: ["object"],
  result: "object",
  nondeterministic: true,
  impl: ([req], ctx) => send(req as Value, ctx),
};
