import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, test } from "node:test";
import { stringifyJSON } from "../../value/value.js";
import {
  builtinError,
  callBuiltin,
  callJSON,
  obj,
  set,
  typeError,
} from "../testing/call-builtin.js";

const secretJwk = { kty: "oct", k: Buffer.from("42").toString("base64url") };
const hs256 = (payload: Record<string, unknown>) =>
  callBuiltin("io.jwt.encode_sign", [{ alg: "HS256", typ: "JWT" }, payload, secretJwk]) as string;

describe("io.jwt.encode_sign and io.jwt.decode", () => {
  test("sign with sorted compact JSON and decode back to header, payload and hex signature", () => {
    const token = hs256({ sub: "0", iss: "opa", aud: set("b", "a") });
    const [header, payload] = token.split(".") as [string, string];
    assert.equal(Buffer.from(header, "base64url").toString(), '{"alg":"HS256","typ":"JWT"}');
    assert.equal(
      Buffer.from(payload, "base64url").toString(),
      '{"aud":["a","b"],"iss":"opa","sub":"0"}',
    );
    const decoded = callBuiltin("io.jwt.decode", [token]) as unknown[];
    assert.equal(stringifyJSON(decoded[1] as never), '{"aud":["a","b"],"iss":"opa","sub":"0"}');
    assert.match(decoded[2] as string, /^[0-9a-f]{64}$/);
  });

  test("report malformed tokens with OPA's messages", () => {
    assert.throws(
      () => callBuiltin("io.jwt.decode", ["abc"]),
      builtinError("io.jwt.decode: encoded JWT had no period separators"),
    );
    assert.throws(
      () => callBuiltin("io.jwt.decode", ["a.b"]),
      builtinError("io.jwt.decode: encoded JWT must have 3 sections, found 2"),
    );
    assert.throws(
      () => callBuiltin("io.jwt.decode", ["eyJhbGciOiJIU^%zI1NiI+sInR5cCI6IkpXVCJ9.e30.e30"]),
      builtinError(
        "io.jwt.decode: JWT header had invalid encoding: illegal base64 data at input byte 13",
      ),
    );
    assert.throws(
      () => callBuiltin("io.jwt.decode", [5]),
      typeError("io.jwt.decode: operand 1 must be string but got number"),
    );
  });

  test("encode_sign_raw keeps the header text verbatim and checks JWT payloads are JSON", () => {
    const raw = callBuiltin("io.jwt.encode_sign_raw", [
      '{"typ":"text/plain","alg":"HS256"}',
      "e",
      JSON.stringify(secretJwk),
    ]);
    assert.equal((raw as string).split(".")[1], "ZQ");
    assert.throws(
      () =>
        callBuiltin("io.jwt.encode_sign_raw", ['{"alg":"HS256"}', "e", JSON.stringify(secretJwk)]),
      builtinError("io.jwt.encode_sign_raw: type is JWT but payload is not JSON"),
    );
    assert.throws(
      () =>
        callBuiltin("io.jwt.encode_sign_raw", ['{"alg":"dummy"}', "{}", JSON.stringify(secretJwk)]),
      builtinError("io.jwt.encode_sign_raw: unknown JWS algorithm: dummy"),
    );
    assert.throws(
      () => callBuiltin("io.jwt.encode_sign_raw", ["{}", "{}", JSON.stringify(secretJwk)]),
      builtinError(
        `io.jwt.encode_sign_raw: missing or invalid 'alg' header: jwsbb: header "alg" not found`,
      ),
    );
  });
});

describe("io.jwt.decode_verify", () => {
  test("verifies the secret and the exp/nbf claims against the given time", () => {
    const token = hs256({ iss: "xxx", exp: 3000.2, nbf: 1000 });
    const at = (time: number) => callJSON("io.jwt.decode_verify", token, { secret: "42", time });
    assert.equal(
      at(2000e9),
      '[true,{"alg":"HS256","typ":"JWT"},{"exp":3000.2,"iss":"xxx","nbf":1000}]',
    );
    assert.equal(at(3000.2e9), "[false,{},{}]");
    assert.equal(at(999e9), "[false,{},{}]");
    assert.equal(
      callJSON("io.jwt.decode_verify", token, { secret: "wrong", time: 2000e9 }),
      "[false,{},{}]",
    );
  });

  test("checks iss and aud constraints", () => {
    const token = hs256({ iss: "xxx", aud: ["fred", "bob"] });
    assert.equal(
      callJSON("io.jwt.decode_verify", token, { secret: "42", aud: "bob" }).startsWith("[true"),
      true,
    );
    assert.equal(
      callJSON("io.jwt.decode_verify", token, { secret: "42", aud: "cath" }),
      "[false,{},{}]",
    );
    assert.equal(callJSON("io.jwt.decode_verify", token, { secret: "42" }), "[false,{},{}]");
    assert.equal(
      callJSON("io.jwt.decode_verify", hs256({}), { secret: "42", iss: "xxx" }),
      "[false,{},{}]",
    );
  });

  test("honours crit only for header parameters it knows", () => {
    const raw = (header: string) =>
      callBuiltin("io.jwt.encode_sign_raw", [header, "{}", JSON.stringify(secretJwk)]) as string;
    const verify = (token: string) => callJSON("io.jwt.decode_verify", token, { secret: "42" });
    assert.match(verify(raw('{"alg":"HS256","crit":["alg"]}')), /^\[true,/);
    assert.equal(verify(raw('{"alg":"HS256","crit":["junk"],"junk":1}')), "[false,{},{}]");
    assert.throws(
      () => verify(raw('{"alg":"HS256","crit":[]}')),
      builtinError("io.jwt.decode_verify: crit: must be a nonempty list"),
    );
    assert.equal(
      verify(raw('{"typ":"JWT","alg":"HS256","kid":"k"}').replace(/^[^.]+/, "eyJ0eXAiOiJKV1QifQ")),
      "[false,{},{}]",
    );
  });

  test("refuses non-numeric time claims and bad constraint sets", () => {
    assert.throws(
      () => callBuiltin("io.jwt.decode_verify", [hs256({ exp: null }), { secret: "42" }]),
      builtinError("io.jwt.decode_verify: exp value must be a number"),
    );
    assert.throws(
      () => callBuiltin("io.jwt.decode_verify", [hs256({ nbf: "soon" }), { secret: "42" }]),
      builtinError("io.jwt.decode_verify: nbf value must be a number"),
    );
    assert.throws(
      () => callBuiltin("io.jwt.decode_verify", [hs256({}), {}]),
      builtinError("io.jwt.decode_verify: no key constraint"),
    );
    assert.throws(
      () => callBuiltin("io.jwt.decode_verify", [hs256({}), { secret: "42", bogus: 1 }]),
      builtinError("io.jwt.decode_verify: unknown token validation constraint: bogus"),
    );
    assert.throws(
      () => callBuiltin("io.jwt.decode_verify", [hs256({}), { secret: "42", time: -1 }]),
      builtinError("io.jwt.decode_verify: token time constraint: must not be negative"),
    );
  });
});

describe("asymmetric verification", () => {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ed = generateKeyPairSync("ed25519");
  const pem = (k: typeof rsa.publicKey) => k.export({ format: "pem", type: "spki" }) as string;
  const sign = (alg: string, key: typeof rsa.privateKey) =>
    callBuiltin("io.jwt.encode_sign", [
      obj(["alg", alg]),
      obj(["iss", "me"]),
      key.export({ format: "jwk" }),
    ]) as string;

  test("RS, PS, ES and EdDSA tokens verify against PEM public keys and JWKs", () => {
    assert.equal(
      callBuiltin("io.jwt.verify_rs256", [sign("RS256", rsa.privateKey), pem(rsa.publicKey)]),
      true,
    );
    assert.equal(
      callBuiltin("io.jwt.verify_ps384", [sign("PS384", rsa.privateKey), pem(rsa.publicKey)]),
      true,
    );
    assert.equal(
      callBuiltin("io.jwt.verify_es256", [sign("ES256", ec.privateKey), pem(ec.publicKey)]),
      true,
    );
    assert.equal(
      callBuiltin("io.jwt.verify_eddsa", [sign("EdDSA", ed.privateKey), pem(ed.publicKey)]),
      true,
    );
    const jwk = JSON.stringify({ keys: [rsa.publicKey.export({ format: "jwk" })] });
    assert.equal(callBuiltin("io.jwt.verify_rs256", [sign("RS256", rsa.privateKey), jwk]), true);
  });

  test("a signature made with another algorithm or key does not verify", () => {
    assert.equal(
      callBuiltin("io.jwt.verify_ps256", [sign("RS256", rsa.privateKey), pem(rsa.publicKey)]),
      false,
    );
    assert.equal(
      callBuiltin("io.jwt.verify_rs256", [sign("RS256", rsa.privateKey), pem(ec.publicKey)]),
      false,
    );
  });

  test("bad key material gives OPA's errors", () => {
    const token = sign("RS256", rsa.privateKey);
    assert.throws(
      () => callBuiltin("io.jwt.verify_rs256", [token, `${pem(rsa.publicKey)}EXTRA`]),
      builtinError("io.jwt.verify_rs256: extra data after a PEM certificate block"),
    );
    assert.throws(() => callBuiltin("io.jwt.verify_rs256", [token, '{"kty":"bogus"}']), {
      message: /^io\.jwt\.verify_rs256: failed to parse a JWK key \(set\)/,
    });
  });
});
