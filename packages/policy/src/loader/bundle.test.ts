/**
 * The bundle reader keeps what verification and management need (every file, the manifest,
 * the signature), and a bundle held in memory verifies with keys from OPA's configuration.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { parseKeysConfig, verificationConfigFor } from "../bundle/keys-config.js";
import { signaturesFileText, signBundleFiles } from "../bundle/sign.js";
import { readBundle, readBundleDir } from "./bundle.js";
import { BundleLoadError, readVerifiedBundle } from "./load-bundles.js";
import { writeTar } from "./tar.js";

const files = [
  { name: "/data.json", content: Buffer.from('{"roles": {"alice": "admin"}}') },
  { name: "/authz/p.rego", content: Buffer.from("package authz\n\nallow := true\n") },
  {
    name: "/.manifest",
    content: Buffer.from(
      '{"revision": "r9", "roots": ["/authz/", "roles"], "metadata": {"k": 1}, "rego_version": 1}',
    ),
  },
  { name: "/README.md", content: Buffer.from("not loaded, but signed") },
];

function tarball(extra: { name: string; content: Buffer }[] = []): Buffer {
  return gzipSync(writeTar([...files, ...extra]));
}

function signedTarball(secret: string): Buffer {
  const token = signBundleFiles(
    files.map((f) => ({ name: f.name.slice(1), content: f.content })),
    { key: secret, algorithm: "HS256" },
  );
  return tarball([{ name: "/.signatures.json", content: Buffer.from(signaturesFileText(token)) }]);
}

describe("bundle reader", () => {
  it("keeps every file, the manifest and the signature", () => {
    const b = readBundle("b.tar.gz", signedTarball("s"));
    assert.deepEqual(
      b.files.map((f) => f.name),
      ["data.json", "authz/p.rego", ".manifest", "README.md", ".signatures.json"],
    );
    assert.deepEqual(b.roots, ["authz", "roles"]);
    assert.equal(b.manifest?.revision, "r9");
    assert.deepEqual(b.manifest?.metadata, { k: 1 });
    assert.equal(b.manifest?.regoVersion, 1);
    assert.equal(b.signatures?.signatures?.length, 1);
    assert.deepEqual(
      b.modules.map((m) => m.file),
      ["b.tar.gz/authz/p.rego"],
    );
    assert.deepEqual(b.documents[0]?.path, []);
  });

  it("refuses a manifest that is not JSON, with OPA's message", () => {
    assert.throws(
      () =>
        readBundle("b", gzipSync(writeTar([{ name: "/.manifest", content: Buffer.from("{") }]))),
      { message: /^bundle load failed on manifest decode: / },
    );
  });

  it("names a directory's files by the directory joined with the path inside", () => {
    const dir = mkdtempSync(join(tmpdir(), "rego-bundle-"));
    try {
      mkdirSync(join(dir, "a", "b"), { recursive: true });
      writeFileSync(join(dir, "a", "b", "data.json"), '{"x": 1}');
      writeFileSync(join(dir, "z.rego"), "package z\n");
      writeFileSync(join(dir, ".manifest"), "{}");
      const b = readBundleDir(`${dir}/`);
      const base = dir.replace(/^\//, "");
      assert.deepEqual(
        b.files.map((f) => f.name),
        [`${base}/.manifest`, `${base}/a/b/data.json`, `${base}/z.rego`],
      );
      assert.deepEqual(b.documents[0]?.path, ["a", "b"]);
      assert.deepEqual(b.roots, [""]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it("verifies a downloaded bundle with keys from OPA's configuration", () => {
    const keys = parseKeysConfig({ global: { algorithm: "HS256", key: "s3cret" } });
    const verification = verificationConfigFor({ keyid: "global" }, keys);
    const ok = readVerifiedBundle("authz", signedTarball("s3cret"), { verification });
    assert.equal(ok.manifest?.revision, "r9");
    assert.throws(
      () => readVerifiedBundle("authz", signedTarball("other"), { verification }),
      (e: unknown) =>
        e instanceof BundleLoadError &&
        e.message ===
          "bundle authz: failed to verify message: failed to match hmac signature: %!w(<nil>)",
    );
    assert.throws(() => readVerifiedBundle("authz", tarball(), { verification }), {
      message: "bundle authz: bundle missing .signatures.json file",
    });
    assert.throws(() => readVerifiedBundle("authz", Buffer.from("junk")), {
      message: /^bundle authz: /,
    });
  });
});

describe("bundle roots (bundle mode)", () => {
  const bundleWith = (manifest: string, extra: { name: string; content: string }[]) =>
    gzipSync(
      writeTar([
        { name: "/.manifest", content: Buffer.from(manifest) },
        ...extra.map((e) => ({ name: e.name, content: Buffer.from(e.content) })),
      ]),
    );

  it("refuses overlapping roots, and policies or data outside the roots, with OPA's messages", () => {
    const refused = (
      manifest: string,
      files: { name: string; content: string }[],
      message: string,
    ) => assert.throws(() => readVerifiedBundle("b", bundleWith(manifest, files)), { message });
    refused(
      '{"roots": ["a", "a/b"]}',
      [],
      "bundle b: manifest has overlapped roots: 'a' and 'a/b'",
    );
    refused(
      '{"roots": ["a", "c"]}',
      [{ name: "/x/p.rego", content: "package x.y\n" }],
      "bundle b: manifest roots [a c] do not permit 'package x.y' in module '/x/p.rego'",
    );
    refused(
      '{"roots": ["a/b"]}',
      [{ name: "/data.json", content: '{"a": {"c": 1}}' }],
      "bundle b: manifest roots [a/b] do not permit data at path '/a/c' (hint: check bundle directory structure)",
    );
  });

  it("accepts policies and data under the roots", () => {
    const ok = readVerifiedBundle(
      "b",
      bundleWith('{"roots": ["a/b", "x"]}', [
        { name: "/a/b/data.json", content: '{"c": 1}' },
        { name: "/data.json", content: '{"x": {"y": 2}}' },
        { name: "/p.rego", content: "package x.z\n" },
      ]),
    );
    assert.deepEqual(ok.roots, ["a/b", "x"]);
  });
});
