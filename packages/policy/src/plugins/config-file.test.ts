import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ConfigFileError,
  parseRuntimeConfig,
  publicConfig,
  readConfigDocument,
} from "./config-file.js";
import { OverrideSyntaxError, typedOverrideValue } from "./config-overrides.js";

const files: Record<string, string> = {
  "/c.yaml": "services:\n  acme:\n    url: https://example.com/api/\nbundles:\n  authz: {}\n",
  "/ca.pem": "-----BEGIN CERTIFICATE-----\n",
  "/token": "tok",
};
const readText = (path: string): string => {
  const text = files[path];
  if (text === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
  return text;
};

function parse(doc: Record<string, unknown>) {
  return parseRuntimeConfig(doc, { cwd: "/work", readText });
}

function refused(doc: Record<string, unknown>, message: string | RegExp): void {
  assert.throws(
    () => parse(doc),
    (e: unknown) => {
      assert.ok(e instanceof ConfigFileError);
      if (typeof message === "string") assert.equal(e.message, message);
      else assert.match(e.message, message);
      return true;
    },
  );
}

const acme = { acme: { url: "http://s" } };

describe("configuration file", () => {
  it("reads YAML, fills OPA's defaults, and joins resources", () => {
    const c = parse(readConfigDocument("/c.yaml", {}, readText));
    assert.equal(c.services.get("acme")?.url, "https://example.com/api");
    assert.equal(c.services.get("acme")?.responseHeaderTimeoutMs, 10_000);
    assert.deepEqual(c.bundles, [
      {
        name: "authz",
        service: "acme",
        resource: "bundles/authz",
        persist: false,
        minDelayMs: 60_000,
        maxDelayMs: 120_000,
        longPollingTimeoutSeconds: undefined,
        verification: undefined,
      },
    ]);
    assert.equal(c.persistenceDirectory, "/work/.opa");
    assert.equal(c.status, undefined);
  });

  it("takes services as a list or a map, with bearer tokens, headers and TLS", () => {
    const list = parse({
      services: [
        {
          name: "a",
          url: "https://a",
          headers: { X: "1" },
          credentials: { bearer: { token: "t", scheme: "Token" } },
          tls: { ca_cert: "/ca.pem" },
          allow_insecure_tls: true,
          response_header_timeout_seconds: 2,
        },
      ],
    });
    const a = list.services.get("a");
    assert.deepEqual(a?.bearer, { token: "t", tokenPath: undefined, scheme: "Token" });
    assert.equal(a?.caCert, files["/ca.pem"]);
    assert.equal(a?.allowInsecureTls, true);
    assert.equal(a?.responseHeaderTimeoutMs, 2000);
    assert.deepEqual(a?.headers, { X: "1" });
    const map = parse({
      services: { b: { url: "http://b", credentials: { bearer: { token_path: "/token" } } } },
    });
    assert.deepEqual(map.services.get("b")?.bearer, {
      token: undefined,
      tokenPath: "/token",
      scheme: "Bearer",
    });
  });

  it("names the key of every bad value", () => {
    refused({ services: { a: {} } }, "services.a.url: must be set");
    refused({ services: [{ url: "http://x" }] }, "services[0].name: must be set");
    refused({ services: { a: { url: "ftp://x" } } }, /^services\.a\.url: only http and https/);
    refused(
      { services: { a: { url: "not a url" } } },
      "services.a.url: not a valid URL: not a url",
    );
    refused(
      { services: { a: { url: "http://x", headers: { h: 1 } } } },
      "services.a.headers.h: must be a string",
    );
    refused(
      { services: { a: { url: "http://x", credentials: { client_tls: {} } } } },
      "services.a.credentials.client_tls: not supported (only bearer)",
    );
    refused(
      {
        services: {
          a: { url: "http://x", credentials: { bearer: { token: "a", token_path: "/t" } } },
        },
      },
      "services.a.credentials.bearer: token and token_path are exclusive",
    );
    refused(
      { services: { a: { url: "http://x", tls: { ca_cert: "/missing.pem" } } } },
      /^services\.a\.tls\.ca_cert: ENOENT/,
    );
    refused(
      { services: { a: { url: "http://x", response_header_timeout_seconds: "10" } } },
      "services.a.response_header_timeout_seconds: must be a number of seconds (0 or more)",
    );
    refused(
      { bundles: { b: {} } },
      'invalid configuration for bundle "b": service name "" not found',
    );
    refused(
      { services: acme, bundles: { b: { service: "other" } } },
      'invalid configuration for bundle "b": service name "other" not found',
    );
    refused(
      { services: acme, bundles: { b: { polling: { min_delay_seconds: 5 } } } },
      "invalid configuration for bundle \"b\": polling configuration missing 'max_delay_seconds'",
    );
    refused(
      { services: acme, bundles: { b: { polling: { max_delay_seconds: 5 } } } },
      "invalid configuration for bundle \"b\": polling configuration missing 'min_delay_seconds'",
    );
    refused(
      {
        services: acme,
        bundles: { b: { polling: { min_delay_seconds: 5, max_delay_seconds: 1 } } },
      },
      'invalid configuration for bundle "b": max polling delay must be >= min polling delay',
    );
    refused(
      { services: acme, bundles: { b: { persist: "yes" } } },
      "bundles.b.persist: must be true or false",
    );
    refused(
      { services: acme, bundles: { b: { trigger: "manual" } } },
      'invalid configuration for bundle "b": invalid trigger mode "manual" (only "periodic" is supported)',
    );
    refused(
      { services: acme, bundles: { b: { signing: { keyid: "k" } } } },
      'invalid configuration for bundle "b": key id k not found',
    );
    refused(
      { keys: { k: { algorithm: "RS256" } } },
      "invalid keys configuration: no keys provided for key ID k",
    );
    refused({ keys: { k: { key: "PUB", algorithm: "none" } } }, "unsupported algorithm 'none'");
    refused({ keys: { k: { key: 1 } } }, "keys.k.key: must be a string");
    refused(
      { services: acme, keys: { k: { key: "PUB" } }, bundles: { b: { signing: { keyid: 1 } } } },
      "bundles.b.signing.keyid: must be a string",
    );
    refused(
      { services: acme, bundles: { b: { signing: { exclude_files: "x" } } } },
      "bundles.b.signing.exclude_files: must be a list of strings",
    );
    refused({ status: { service: "nope" } }, 'invalid service name "nope" in status');
    refused({ status: {} }, "status: service or console must be set");
    refused({ status: { console: "true" } }, "status.console: must be true or false");
    refused({ labels: { a: 1 } }, "labels.a: must be a string");
    refused({ default_decision: "a//b" }, "default_decision: not a path like /a/b: a//b");
    refused({ server: { decoding: { max_length: 0 } } }, /^server\.decoding\.max_length: /);
    refused({ server: { workers: -1 } }, "server.workers: must be a whole number from 0 to 9999");
    refused({ decision_logs: { console: 1 } }, "decision_logs.console: must be true or false");
    refused({ plugins: { x: {} } }, 'plugins.x: plugin "x" is not registered');
    refused({ discovery: { name: "d" } }, "discovery: not supported by this server");
    refused({ bundle: { name: "b" } }, "bundle: not supported by this server");
    refused({ persistence_directory: 1 }, "persistence_directory: must be a string");
  });

  it("keeps signing, keys, status, labels and the decision-log section", () => {
    const c = parse({
      services: acme,
      keys: { k: { key: "PUBLIC", algorithm: "ES256" } },
      bundles: {
        signed: { signing: { keyid: "k", scope: "write", exclude_files: ["x.json"] } },
        implied: {},
      },
      status: { console: true },
      labels: { app: "a" },
      decision_logs: {
        service: "acme",
        console: true,
        reporting: { min_delay_seconds: 1, max_delay_seconds: 2 },
      },
      default_decision: "/a/b",
      server: { decoding: { max_length: 10 }, workers: 0 },
      persistence_directory: "/p",
      polling_unknown_top_level: true,
    });
    const k = { key: "PUBLIC", privateKey: "", algorithm: "ES256", scope: "" };
    assert.deepEqual(c.keys, new Map([["k", k]]));
    assert.deepEqual(c.bundles[0]?.verification, {
      publicKeys: c.keys,
      keyId: "k",
      scope: "write",
      exclude: ["x.json"],
    });
    // OPA: with keys configured, every bundle is verified.
    assert.deepEqual(c.bundles[1]?.verification, {
      publicKeys: c.keys,
      keyId: "",
      scope: "",
      exclude: [],
    });
    // status.console alone: no upload (OPA sends to the first service only without console).
    assert.deepEqual(c.status, { service: undefined, console: true, partitionName: undefined });
    assert.deepEqual(c.labels, { app: "a" });
    assert.equal(c.decisionLogsConsole, true);
    assert.deepEqual(c.decisionLogs, {
      service: "acme",
      console: true,
      reporting: { min_delay_seconds: 1, max_delay_seconds: 2 },
    });
    assert.equal(c.decisionLogsPlugin?.service, "acme");
    assert.equal(c.decisionLogsPlugin?.reporting.minDelaySeconds, 1);
    assert.deepEqual(c.defaultDecision, ["a", "b"]);
    assert.equal(c.maxBodyBytes, 10);
    assert.equal(c.serverWorkers, 0);
    assert.equal(c.persistenceDirectory, "/p");
    assert.equal(parse({ services: acme, status: {} }).status?.service, "acme");
  });

  it("shows the configuration without credentials or key material", () => {
    const c = parse({
      services: [{ name: "a", url: "http://a", credentials: { bearer: { token: "secret" } } }],
      keys: { k: { key: "PUB", private_key: "PRIV", algorithm: "RS256" } },
    });
    const shown = publicConfig(c, { id: "i", version: "v" });
    assert.deepEqual(shown, {
      services: [{ name: "a", url: "http://a" }],
      keys: { k: { algorithm: "RS256" } },
      labels: { id: "i", version: "v" },
      default_decision: "/system/main",
      default_authorization_decision: "/system/authz/allow",
    });
    // The validated configuration itself keeps the token.
    assert.equal(c.services.get("a")?.bearer?.token, "secret");
  });
});

describe("--set and --set-file", () => {
  it("sets any dotted key, typed as OPA types values, and several per flag", () => {
    const doc = readConfigDocument(
      undefined,
      {
        set: [
          "a.b=true,a.c=12,a.d=null,a.e=text,a.f=0.5,a.g=012",
          "list[1].name=x",
          "comma=a\\,b",
          "a.b=false",
        ],
        setFile: ["services.s.credentials.bearer.token=/token"],
      },
      readText,
    );
    assert.deepEqual(doc, {
      a: { b: false, c: 12, d: null, e: "text", f: 0.5, g: "012" },
      list: [null, { name: "x" }],
      comma: "a,b",
      services: { s: { credentials: { bearer: { token: "tok" } } } },
    });
  });

  it("overrides the file's values and reports malformed overrides", () => {
    const doc = readConfigDocument(
      "/c.yaml",
      { set: ["services.acme.url=http://other"] },
      readText,
    );
    assert.equal((doc.services as Record<string, { url: string }>).acme.url, "http://other");
    assert.throws(
      () => readConfigDocument(undefined, { set: ["novalue"] }, readText),
      OverrideSyntaxError,
    );
    assert.throws(
      () => readConfigDocument(undefined, { set: ["=1"] }, readText),
      /--set =1: expected key=value/,
    );
    assert.throws(
      () => readConfigDocument(undefined, { set: ["a..b=1"] }, readText),
      /malformed key/,
    );
    assert.throws(
      () => readConfigDocument(undefined, { setFile: ["a=/missing"] }, readText),
      /^ConfigFileError: --set-file \/missing: ENOENT/,
    );
    assert.throws(
      () => readConfigDocument("/missing.yaml", {}, readText),
      /--config-file \/missing\.yaml: ENOENT/,
    );
  });

  it("types values like OPA's strvals", () => {
    assert.equal(typedOverrideValue("true"), true);
    assert.equal(typedOverrideValue("-3"), -3);
    assert.equal(typedOverrideValue("0"), 0);
    assert.equal(typedOverrideValue("007"), "007");
    assert.equal(typedOverrideValue("99999999999999999999"), "99999999999999999999");
    assert.equal(typedOverrideValue(""), "");
  });
});
