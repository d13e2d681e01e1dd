/**
 * Signing and verifying bundle files: every algorithm OPA supports round-trips, and every
 * way a bundle can be tampered with is refused with OPA's message.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, it } from "node:test";
import { goMarshal, JsonNumber, parseGoJson } from "./go-json.js";
import type { VerificationConfig } from "./keys-config.js";
import {
  generateSignedToken,
  signaturesFileText,
  signBundleFiles,
  signedFileList,
} from "./sign.js";
import { type BundleFile, BundleVerificationError, verifyBundle } from "./verify.js";

function pems(type: "rsa" | "ec", curve = "P-256") {
  const pair =
    type === "rsa"
      ? generateKeyPairSync("rsa", { modulusLength: 2048 })
      : generateKeyPairSync("ec", { namedCurve: curve });
  return {
    priv: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    pub: pair.publicKey.export({ type: "spki", format: "pem" }).toString(),
    sec1: type === "ec" ? pair.privateKey.export({ type: "sec1", format: "pem" }).toString() : "",
    pkcs1:
      type === "rsa" ? pair.privateKey.export({ type: "pkcs1", format: "pem" }).toString() : "",
  };
}

const rsa = pems("rsa");
const otherRsa = pems("rsa");
const ec256 = pems("ec", "P-256");
const ec384 = pems("ec", "P-384");
const ec521 = pems("ec", "P-521");

const bundle = (): BundleFile[] => [
  { name: "data.json", content: Buffer.from('{"a": {"b": 1}}') },
  { name: "x/policy.rego", content: Buffer.from("package x\n\np := data.a.b\n") },
  { name: ".manifest", content: Buffer.from('{"revision": "1", "roots": ["x", "a"]}') },
];

function config(key: string, algorithm = "RS256", extra: Partial<VerificationConfig> = {}) {
  return {
    publicKeys: new Map([["default", { key, privateKey: "", algorithm, scope: "" }]]),
    keyId: "default",
    scope: "",
    exclude: [],
    ...extra,
  } satisfies VerificationConfig;
}

function signed(
  files: BundleFile[],
  key = rsa.priv,
  algorithm = "RS256",
  keyId = "",
): BundleFile[] {
  const token = signBundleFiles(files, { key, algorithm }, keyId);
  return [...files, { name: ".signatures.json", content: Buffer.from(signaturesFileText(token)) }];
}

function refused(
  files: BundleFile[],
  cfg: VerificationConfig | undefined,
  message: string | RegExp,
) {
  assert.throws(
    () => verifyBundle(files, cfg),
    (e: unknown) => {
      assert.ok(e instanceof BundleVerificationError, String(e));
      if (typeof message === "string") assert.equal(e.message, message);
      else assert.match(e.message, message);
      return true;
    },
  );
}

function decode(token: string): { header: unknown; payload: unknown } {
  const [h, p] = token.split(".");
  return {
    header: JSON.parse(Buffer.from(h as string, "base64url").toString()),
    payload: JSON.parse(Buffer.from(p as string, "base64url").toString()),
  };
}

describe("bundle signatures", () => {
  it("verify for every algorithm OPA supports", () => {
    const cases: [string, string, string][] = [
      ["RS256", rsa.priv, rsa.pub],
      ["RS384", rsa.pkcs1, rsa.pub],
      ["RS512", rsa.priv, rsa.pub],
      ["PS256", rsa.priv, rsa.pub],
      ["PS384", rsa.priv, rsa.pub],
      ["PS512", rsa.pkcs1, rsa.pub],
      ["ES256", ec256.priv, ec256.pub],
      ["ES384", ec384.sec1, ec384.pub],
      ["ES512", ec521.priv, ec521.pub],
      ["HS256", "s3cret", "s3cret"],
      ["HS384", "s3cret", "s3cret"],
      ["HS512", "s3cret", "s3cret"],
    ];
    for (const [alg, priv, pub] of cases) {
      const files = signed(bundle(), priv, alg);
      verifyBundle(files, config(pub, alg));
      const token = signBundleFiles(bundle(), { key: priv, algorithm: alg });
      assert.deepEqual(decode(token).header, { alg }, alg);
    }
  });

  it("write OPA's token: header alg/kid, payload files (and keyid) with sorted keys", () => {
    const token = signBundleFiles(bundle(), { key: rsa.priv }, "mykey");
    const { header, payload } = decode(token);
    assert.deepEqual(header, { alg: "RS256", kid: "mykey" });
    assert.deepEqual(Object.keys(payload as object), ["files", "keyid"]);
    const files = (payload as { files: { name: string; algorithm: string; hash: string }[] }).files;
    assert.deepEqual(
      files.map((f) => f.name),
      ["data.json", "x/policy.rego", ".manifest"],
    );
    assert.deepEqual(Object.keys(files[0] as object), ["name", "hash", "algorithm"]);
    assert.ok(files.every((f) => f.algorithm === "SHA-256" && /^[0-9a-f]{64}$/.test(f.hash)));
    assert.equal((payload as { keyid: string }).keyid, "mykey");
  });

  it("put claims (scope, iss, numbers as written) into the payload instead of keyid", () => {
    const claims = parseGoJson('{"scope": "write", "iss": "ci<>", "iat": 1.50}') as Map<
      string,
      never
    >;
    const token = generateSignedToken(signedFileList(bundle()), { key: rsa.priv, claims }, "k");
    const raw = Buffer.from(token.split(".")[1] as string, "base64url").toString();
    assert.match(raw, /^\{"files":\[.*\],"iat":1\.50,"iss":"ci\\u003c\\u003e","scope":"write"\}$/);
    assert.doesNotMatch(raw, /keyid/);
    const files = signed(bundle());
    // The scope claim must match the configured scope.
    const withScope = [
      ...bundle(),
      { name: ".signatures.json", content: Buffer.from(signaturesFileText(token)) },
    ];
    refused(withScope, config(rsa.pub), "scope mismatch");
    verifyBundle(withScope, config(rsa.pub, "RS256", { scope: "write" }));
    refused(files, config(rsa.pub, "RS256", { scope: "write" }), "scope mismatch");
  });

  it("write .signatures.json indented by one space", () => {
    assert.equal(signaturesFileText("a.b.c"), '{\n "signatures": [\n  "a.b.c"\n ]\n}');
  });

  it("refuse a changed file with OPA's digest mismatch", () => {
    const files = signed(bundle());
    files[1] = { name: "x/policy.rego", content: Buffer.from("package x\n\np := 2\n") };
    refused(
      files,
      config(rsa.pub),
      /^x\/policy\.rego: digest mismatch \(want: [0-9a-f]{64}, got: [0-9a-f]{64}\)$/,
    );
  });

  it("accept a reformatted data.json, whose content did not change", () => {
    const files = signed(bundle());
    files[0] = { name: "data.json", content: Buffer.from('{\n  "a": {\n    "b": 1\n  }\n}\n') };
    verifyBundle(files, config(rsa.pub));
  });

  it("refuse an extra file, and a missing one", () => {
    const extra = [...signed(bundle()), { name: "y/evil.rego", content: Buffer.from("package y") }];
    refused(extra, config(rsa.pub), "file y/evil.rego not included in bundle signature");
    const missing = signed(bundle()).filter((f) => f.name !== "data.json");
    refused(
      missing,
      config(rsa.pub),
      "file(s) [data.json] specified in bundle signatures but not found in the target bundle",
    );
  });

  it("skip excluded files (Go glob patterns)", () => {
    const extra = [...signed(bundle()), { name: "docs/readme.md", content: Buffer.from("hi") }];
    verifyBundle(extra, config(rsa.pub, "RS256", { exclude: ["docs/*.md"] }));
    refused(extra, config(rsa.pub, "RS256", { exclude: ["*.md"] }), /not included/);
  });

  it("refuse a bad signature, a wrong key and a wrong algorithm", () => {
    const files = signed(bundle());
    const sig = files.at(-1) as BundleFile;
    const token = JSON.parse(sig.content.toString()).signatures[0] as string;
    const [h, p, s] = token.split(".") as [string, string, string];
    const flipped = `${s.slice(0, 10)}${s[10] === "A" ? "B" : "A"}${s.slice(11)}`;
    const forged = [
      ...bundle(),
      {
        name: ".signatures.json",
        content: Buffer.from(signaturesFileText(`${h}.${p}.${flipped}`)),
      },
    ];
    refused(forged, config(rsa.pub), "failed to verify message: crypto/rsa: verification error");
    refused(
      files,
      config(otherRsa.pub),
      "failed to verify message: crypto/rsa: verification error",
    );
    refused(
      files,
      config(rsa.pub, "ES256"),
      "failed to verify message: invalid key type *rsa.PublicKey. *ecdsa.PublicKey is required",
    );
    const ecFiles = signed(bundle(), ec256.priv, "ES256");
    refused(ecFiles, config(pems("ec").pub, "ES256"), /failed to verify signature using ecdsa$/);
    const hsFiles = signed(bundle(), "one", "HS256");
    refused(hsFiles, config("two", "HS256"), /^failed to verify message: failed to match hmac/);
    refused(files, config("not a pem"), "failed to parse PEM block containing the key");
  });

  it("refuse a payload changed after signing", () => {
    const token = signBundleFiles(bundle(), { key: rsa.priv });
    const [h, , s] = token.split(".") as [string, string, string];
    const payload = Buffer.from(goMarshal(new Map([["files", []]]))).toString("base64url");
    const files = [
      {
        name: ".signatures.json",
        content: Buffer.from(signaturesFileText(`${h}.${payload}.${s}`)),
      },
    ];
    refused(files, config(rsa.pub), "failed to verify message: crypto/rsa: verification error");
  });

  it("require a signature when a key is configured, and a key when the bundle is signed", () => {
    refused(bundle(), config(rsa.pub), "bundle missing .signatures.json file");
    refused(signed(bundle()), undefined, "verification key not provided");
    verifyBundle(bundle(), undefined);
    verifyBundle(signed(bundle()), undefined, { skipVerify: true });
    const tampered = signed(bundle());
    tampered[0] = { name: "data.json", content: Buffer.from("{}") };
    verifyBundle(tampered, config(rsa.pub), { skipVerify: true });
  });

  it("refuse .signatures.json without exactly one JWT", () => {
    const sigFile = (text: string) => [
      ...bundle(),
      { name: ".signatures.json", content: Buffer.from(text) },
    ];
    refused(
      sigFile('{"signatures": []}'),
      config(rsa.pub),
      ".signatures.json: missing JWT (expected exactly one)",
    );
    refused(
      sigFile('{"signatures": ["a.b.c", "d.e.f"]}'),
      config(rsa.pub),
      ".signatures.json: multiple JWTs not supported (expected exactly one)",
    );
    refused(sigFile("{"), config(rsa.pub), /^bundle load failed on signatures decode: /);
    // No "signatures" member: OPA treats the bundle as unsigned.
    refused(sigFile("{}"), config(rsa.pub), "bundle missing .signatures.json file");
    refused(
      sigFile('{"signatures": ["abc"]}'),
      config(rsa.pub),
      "Failed to split compact serialization",
    );
  });

  it("pick the key by configured ID, then the token's kid, then its keyid claim", () => {
    const noId = { ...config(rsa.pub), keyId: "" };
    refused(signed(bundle()), noId, "verification key ID is empty");
    verifyBundle(signed(bundle(), rsa.priv, "RS256", "default"), noId);
    refused(
      signed(bundle(), rsa.priv, "RS256", "other"),
      noId,
      "verification key corresponding to ID other not found",
    );
    refused(
      signed(bundle()),
      { ...config(rsa.pub), keyId: "missing" },
      "verification key corresponding to ID missing not found",
    );
  });
});

describe("bundle JSON", () => {
  it("keep JSON numbers of claims verbatim", () => {
    assert.equal(goMarshal(new Map([["n", new JsonNumber("1e400")]])), '{"n":1e400}');
  });
});
