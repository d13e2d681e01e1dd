import assert from "node:assert/strict";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { describe, it } from "node:test";
import { isKnownAlgorithm, JWS_ALGORITHMS, signData, verifySignature } from "./algorithms.js";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const curves: Record<string, string> = { ES256: "P-256", ES384: "P-384", ES512: "P-521" };
const ed = generateKeyPairSync("ed25519");

/** A key pair (or shared secret) for `alg`. */
function keysFor(alg: string): { priv: KeyObject | Buffer; pub: KeyObject | Buffer } {
  if (alg.startsWith("HS")) return { priv: Buffer.from("secret"), pub: Buffer.from("secret") };
  if (alg === "EdDSA") return { priv: ed.privateKey, pub: ed.publicKey };
  if (alg.startsWith("ES")) {
    const pair = generateKeyPairSync("ec", { namedCurve: curves[alg] as string });
    return { priv: pair.privateKey, pub: pair.publicKey };
  }
  return { priv: rsa.privateKey, pub: rsa.publicKey };
}

describe("JWS algorithms (RFC 7518)", () => {
  it("knows the thirteen algorithms OPA knows", () => {
    assert.equal(JWS_ALGORITHMS.length, 13);
    assert.equal(isKnownAlgorithm("EdDSA"), true);
    assert.equal(isKnownAlgorithm("none"), false);
  });

  for (const alg of JWS_ALGORITHMS) {
    it(`${alg} verifies its own signature and not a changed input`, () => {
      const { priv, pub } = keysFor(alg);
      const sig = signData(alg, priv, "header.payload");
      assert.equal(verifySignature(alg, pub, "header.payload", sig), true);
      assert.equal(verifySignature(alg, pub, "header.payload2", sig), false);
    });
  }

  it("ECDSA signatures are raw r||s, twice the curve's size", () => {
    assert.equal(signData("ES256", keysFor("ES256").priv, "x").length, 64);
  });

  it("a key of the wrong kind does not verify and cannot sign", () => {
    const sig = signData("RS256", rsa.privateKey, "x");
    assert.equal(verifySignature("ES256", rsa.publicKey, "x", sig), false);
    assert.equal(verifySignature("HS256", rsa.publicKey, "x", sig), false);
    assert.equal(verifySignature("XX999", rsa.publicKey, "x", sig), false);
    assert.throws(() => signData("HS256", rsa.privateKey, "x"), {
      message: "HS256 requires a symmetric (oct) key",
    });
    assert.throws(() => signData("RS256", rsa.publicKey, "x"), {
      message: "RS256 requires a matching private key",
    });
    assert.throws(() => signData("XX999", rsa.privateKey, "x"), {
      message: "unknown JWS algorithm: XX999",
    });
  });
});
