/** OPA's `keys` and `signing` configuration sections, and Go's glob for `exclude_files`. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { globMatch } from "./glob.js";
import {
  KeysConfigError,
  keyFromFlag,
  parseKeysConfig,
  verificationConfigFor,
  verificationConfigFromFlags,
} from "./keys-config.js";

describe("keys configuration", () => {
  it("reads keys with OPA's defaults (RS256, empty scope)", () => {
    const keys = parseKeysConfig({
      hmac: { algorithm: "HS256", key: "secret" },
      pub: { key: "-----BEGIN PUBLIC KEY-----", scope: "read" },
      signer: { private_key: "-----BEGIN PRIVATE KEY-----", algorithm: "ES256" },
    });
    assert.deepEqual(keys.get("hmac"), {
      key: "secret",
      privateKey: "",
      algorithm: "HS256",
      scope: "",
    });
    assert.equal(keys.get("pub")?.algorithm, "RS256");
    assert.equal(keys.get("pub")?.scope, "read");
    assert.equal(keys.get("signer")?.privateKey, "-----BEGIN PRIVATE KEY-----");
    assert.equal(parseKeysConfig(undefined).size, 0);
  });

  it("refuses bad entries with OPA's messages", () => {
    const refused = (raw: unknown, message: string) =>
      assert.throws(
        () => parseKeysConfig(raw),
        (e: unknown) => {
          assert.ok(e instanceof KeysConfigError);
          assert.equal(e.message, message);
          return true;
        },
      );
    refused(
      { foo: { algorithm: "HS256" } },
      "invalid keys configuration: no keys provided for key ID foo",
    );
    refused({ foo: { key: "k", algorithm: "none" } }, "unsupported algorithm 'none'");
    refused({ foo: [1, 2] }, "keys.foo: must be an object");
    refused([1, 2], "keys: must be an object of key IDs");
    refused({ foo: { key: 1 } }, "keys.foo.key: must be a string");
  });

  it("checks a bundle's signing section against the keys", () => {
    const keys = parseKeysConfig({ k1: { key: "s", algorithm: "HS256" } });
    const config = verificationConfigFor(
      { keyid: "k1", scope: "write", exclude_files: ["a/*"] },
      keys,
    );
    assert.equal(config.keyId, "k1");
    assert.equal(config.scope, "write");
    assert.deepEqual(config.exclude, ["a/*"]);
    assert.throws(() => verificationConfigFor({ keyid: "nope" }, keys), {
      message: "key id nope not found",
    });
    assert.throws(() => verificationConfigFor({ exclude_files: "x" }, keys), {
      message: "signing.exclude_files: must be a list of strings",
    });
  });

  it("reads a command-line key from its file, or takes it as the key itself", () => {
    const dir = mkdtempSync(join(tmpdir(), "rego-keys-"));
    try {
      const file = join(dir, "pub.pem");
      writeFileSync(file, "-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----\n");
      assert.match(keyFromFlag(file), /BEGIN PUBLIC KEY/);
      assert.equal(keyFromFlag("my-hmac-secret"), "my-hmac-secret");
      const config = verificationConfigFromFlags({
        key: "secret",
        keyId: "default",
        algorithm: "HS256",
        scope: "s",
        exclude: [],
      });
      assert.deepEqual(config.publicKeys.get("default"), {
        key: "secret",
        privateKey: "",
        algorithm: "HS256",
        scope: "s",
      });
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe("exclude_files globs (Go's filepath.Match)", () => {
  it("matches within one path segment", () => {
    assert.ok(globMatch("*.json", "data.json"));
    assert.ok(!globMatch("*.json", "a/data.json"));
    assert.ok(globMatch("a/*/data.json", "a/b/data.json"));
    assert.ok(globMatch("a/?.rego", "a/x.rego"));
    assert.ok(!globMatch("a/?.rego", "a/xy.rego"));
    assert.ok(globMatch("[a-c]/x", "b/x"));
    assert.ok(!globMatch("[^a-c]/x", "b/x"));
    assert.ok(globMatch("\\*", "*"));
    assert.ok(!globMatch("[", "["));
  });
});
