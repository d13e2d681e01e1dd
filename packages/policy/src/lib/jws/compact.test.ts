import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, it } from "node:test";
import { SIGNING_ALGORITHMS, signCompact, verifyCompact } from "./compact.js";
import { signingKey, verificationKey } from "./pem-keys.js";

const rsaPair = generateKeyPairSync("rsa", { modulusLength: 2048 });
const rsa = {
  priv: rsaPair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  pub: rsaPair.publicKey.export({ type: "spki", format: "pem" }).toString(),
  pkcs1: rsaPair.privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
};
const ed = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" });

describe("compact JWS", () => {
  it("signs with the header OPA writes and verifies its own tokens", () => {
    const token = signCompact('{"a":1}', "RS256", signingKey(rsa.priv, "RS256"), "k<1>");
    const header = Buffer.from(token.split(".")[0] as string, "base64url").toString();
    assert.equal(header, '{"alg":"RS256","kid":"k\\u003c1\\u003e"}');
    assert.doesNotThrow(() => verifyCompact(token, "RS256", verificationKey(rsa.pub, "RS256")));
  });

  it("takes the twelve bundle algorithms and not EdDSA", () => {
    assert.equal(SIGNING_ALGORITHMS.length, 12);
    assert.throws(() => signingKey("k", "EdDSA"), {
      message: "unsupported signature algorithm: EdDSA",
    });
  });

  it("refuses keys that do not fit the algorithm, with OPA's messages", () => {
    assert.throws(() => signingKey("nope", "RS256"), {
      message: "failed to parse PEM block containing the key",
    });
    assert.throws(() => signingKey(rsa.pub, "RS256"), { message: /^error parsing private key \(/ });
    assert.throws(() => verificationKey(rsa.pkcs1, "RS256"), {
      message: /^x509: failed to parse public key/,
    });
    assert.throws(() => verificationKey(ed.toString(), "RS256"), {
      message: "invalid key type *ed25519.PublicKey",
    });
    assert.throws(() => signingKey("k", "XX999"), {
      message: "unsupported signature algorithm: XX999",
    });
    assert.throws(() => signCompact("{}", "ES256", signingKey(rsa.priv, "RS256")), {
      message:
        "failed to sign Payload: invalid key type *rsa.PrivateKey. *ecdsa.PrivateKey is required",
    });
    assert.throws(() => signCompact("{}", "HS256", signingKey(rsa.priv, "RS256")), {
      message: "failed to sign Payload: hmac sign: invalid key type",
    });
  });

  it("refuses tokens that do not verify, with OPA's messages", () => {
    const hmac = verificationKey("k", "HS256");
    assert.throws(() => verifyCompact("", "HS256", hmac), {
      message: "attempt to verify empty buffer",
    });
    assert.throws(() => verifyCompact("a.b", "HS256", hmac), {
      message:
        "failed extract from compact serialization format: Failed to split compact serialization",
    });
    assert.throws(() => verifyCompact("a.b.c*", "HS256", hmac), {
      message: "failed to decode signature: illegal base64 data at input byte 1",
    });
    assert.throws(() => verifyCompact("a.b.c2ln", "HS256", hmac), {
      message: "failed to verify message: failed to match hmac signature: %!w(<nil>)",
    });
    const token = signCompact("{}", "RS256", signingKey(rsa.priv, "RS256"));
    assert.throws(() => verifyCompact(token, "HS256", verificationKey(rsa.pub, "RS256")), {
      message: "failed to verify message: failed to generated signature: invalid key type",
    });
    assert.throws(() => verifyCompact(`${token}x`, "RS256", verificationKey(rsa.pub, "RS256")), {
      message: "failed to verify message: crypto/rsa: verification error",
    });
  });
});
