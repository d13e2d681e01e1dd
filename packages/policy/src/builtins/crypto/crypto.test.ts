import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, test } from "node:test";
import type { RegoObject } from "../../value/value.js";
import { builtinError, callBuiltin, callJSON, typeError } from "../testing/call-builtin.js";

// A self-signed P-256 CA and a leaf it issued (serverAuth, DNS and URI SANs), valid 2021-2031/2036.
const root = `-----BEGIN CERTIFICATE-----
MIIBoDCCAUagAwIBAgIRAJXcMYZALXooNq/VV/grXhMwCgYIKoZIzj0EAwIwLjER
MA8GA1UEChMIT1BBIFRlc3QxGTAXBgNVBAMTEE9QQSBUZXN0IFJvb3QgQ0EwHhcN
MjEwNzAxMTc0MTUzWhcNMzEwNjI5MTc0MTUzWjAuMREwDwYDVQQKEwhPUEEgVGVz
dDEZMBcGA1UEAxMQT1BBIFRlc3QgUm9vdCBDQTBZMBMGByqGSM49AgEGCCqGSM49
AwEHA0IABFqhdZA5LjsJgzsBvhgzfayZFOk+C7PmGCi7xz6zOC3xWORJZSNOyZeJ
YzSKFmoMZkcFMfslTW1jp9fwe1xl3HWjRTBDMA4GA1UdDwEB/wQEAwIBBjASBgNV
HRMBAf8ECDAGAQH/AgEBMB0GA1UdDgQWBBTch60qxQvLl+AfDfcaXmjvT8GvpzAK
BggqhkjOPQQDAgNIADBFAiBqraIP0l2U0oNuH0+rf36hDks94wSB5EGlGH3lYNMR
ugIhANkbukX5hOP8pJDRWP/pYuv6MBnRY4BS8gpp9Vu31qOb
-----END CERTIFICATE-----
`;
const intermediate = `-----BEGIN CERTIFICATE-----
MIIByDCCAW6gAwIBAgIQC0k4DPGrh9me73EJX5zntTAKBggqhkjOPQQDAjAuMREw
DwYDVQQKEwhPUEEgVGVzdDEZMBcGA1UEAxMQT1BBIFRlc3QgUm9vdCBDQTAeFw0y
MTA3MDExNzQxNTNaFw0zMTA2MjkxNzQxNTNaMDYxETAPBgNVBAoTCE9QQSBUZXN0
MSEwHwYDVQQDExhPUEEgVGVzdCBJbnRlcm1lZGlhdGUgQ0EwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAARvXQa7fy476gDI81nqLYb2SnD459WxBmU0hk2bA3ZuNtI+
H20KXz6ISmxH3MZ2WBm6rOy7y4Gn+WMCJuxzcl5jo2YwZDAOBgNVHQ8BAf8EBAMC
AQYwEgYDVR0TAQH/BAgwBgEB/wIBADAdBgNVHQ4EFgQUuslZNjJl0V8I1Gj17IID
ALy/9WEwHwYDVR0jBBgwFoAU3IetKsULy5fgHw33Gl5o70/Br6cwCgYIKoZIzj0E
AwIDSAAwRQIgUwsYApW9Tsm6AstWswaKGie0srB4FUkUbfKwWmUI2JgCIQCBTySN
MF+EiQAMKyz/N9KUuXEckC356WvKcyJaYYcV0w==
-----END CERTIFICATE-----
`;
const leaf = `-----BEGIN CERTIFICATE-----
MIIB8zCCAZqgAwIBAgIRAID4gPKg7DDiuOfzUYFSXLAwCgYIKoZIzj0EAwIwNjER
MA8GA1UEChMIT1BBIFRlc3QxITAfBgNVBAMTGE9QQSBUZXN0IEludGVybWVkaWF0
ZSBDQTAeFw0yMTA3MDUxNzQ5NTBaFw0zNjA3MDExNzQ5NDdaMCUxIzAhBgNVBAMT
Gm5vdGFyZWFsc2l0ZS5vcGEubG9jYWxob3N0MFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAE1YSXZXeaGGL+XeYyoPi/QdA39Ds4fgxSHJTMh+js393kByPm2PNtFkem
tUii3KCRJw3SEh3z0JWr/9y4+ua2L6OBmTCBljAOBgNVHQ8BAf8EBAMCB4AwHQYD
VR0lBBYwFAYIKwYBBQUHAwEGCCsGAQUFBwMCMB0GA1UdDgQWBBRL0P0g17viZHo9
CnXe3ZQJm48LXTAfBgNVHSMEGDAWgBS6yVk2MmXRXwjUaPXsggMAvL/1YTAlBgNV
HREEHjAcghpub3RhcmVhbHNpdGUub3BhLmxvY2FsaG9zdDAKBggqhkjOPQQDAgNH
ADBEAiAtmZewL94ijN0YwUGaJM9BXCaoTQPwkzugqjCj+K912QIgKKFvbPu4asrE
nwy7dzejHmQUcZ/aUNbc4VTbiv15ESk=
-----END CERTIFICATE-----
`;

describe("digests and HMACs", () => {
  test("hex digests of the UTF-8 bytes", () => {
    assert.equal(callBuiltin("crypto.md5", ["lorem ipsum"]), "80a751fde577028640c419000e33eba6");
    assert.equal(
      callBuiltin("crypto.sha1", ["lorem ipsum"]),
      "bfb7759a67daeb65410490b4d98bb9da7d1ea2ce",
    );
    assert.equal(
      callBuiltin("crypto.sha256", ["lorem ipsum"]),
      "5e2bf57d3f40c4b6df69daf1936cb766f832374b4fc0259a7cbff06e2f70f269",
    );
    assert.equal(
      callBuiltin("crypto.hmac.md5", ["foo", "bar"]),
      "31b6db9e5eb4addb42f1a6ca07367adc",
    );
    assert.equal(
      callBuiltin("crypto.hmac.sha1", ["foo", "bar"]),
      "85d155c55ed286a300bd1cf124de08d87e914f3a",
    );
  });

  test("hmac.equal compares whole strings", () => {
    assert.equal(callBuiltin("crypto.hmac.equal", ["abc", "abc"]), true);
    assert.equal(callBuiltin("crypto.hmac.equal", ["abc", "ab"]), false);
    assert.throws(
      () => callBuiltin("crypto.hmac.equal", ["abc", 1]),
      typeError("crypto.hmac.equal: operand 2 must be string but got number"),
    );
  });
});

describe("crypto.x509", () => {
  test("parse_certificates reads PEM chains into Go-shaped objects", () => {
    const certs = callBuiltin("crypto.x509.parse_certificates", [
      leaf + intermediate,
    ]) as RegoObject[];
    assert.equal(certs.length, 2);
    const subject = certs[0]?.get("Subject") as RegoObject;
    assert.equal(subject.get("CommonName"), "notarealsite.opa.localhost");
    assert.equal(
      callJSON("crypto.x509.parse_certificates", leaf).includes(
        '"DNSNames":["notarealsite.opa.localhost"]',
      ),
      true,
    );
    assert.equal(certs[1]?.get("IsCA"), true);
    assert.equal(certs[0]?.get("URIStrings"), null);
  });

  test("certificate fields follow Go's x509.Certificate JSON", () => {
    const [cert] = callBuiltin("crypto.x509.parse_certificates", [root]) as RegoObject[];
    assert.equal(cert?.get("Version"), 3);
    assert.equal(cert?.get("SerialNumber"), 199198281155336502145185990653522959891n);
    assert.equal(cert?.get("NotBefore"), "2021-07-01T17:41:53Z");
    assert.equal(cert?.get("KeyUsage"), 96);
    assert.equal(cert?.get("MaxPathLen"), 1);
    assert.equal(cert?.get("SignatureAlgorithm"), 10);
    assert.equal(cert?.get("PublicKeyAlgorithm"), 3);
    assert.equal(cert?.get("SubjectKeyId"), "3IetKsULy5fgHw33Gl5o70/Br6c=");
    const issuer = cert?.get("Issuer") as RegoObject;
    assert.deepEqual(issuer.get("Organization"), ["OPA Test"]);
    assert.equal(issuer.get("Country"), null);
  });

  test("parse_certificates accepts base64 of PEM and reports bad input in Go's words", () => {
    const b64 = Buffer.from(root).toString("base64");
    assert.equal((callBuiltin("crypto.x509.parse_certificates", [b64]) as unknown[]).length, 1);
    assert.throws(
      () => callBuiltin("crypto.x509.parse_certificates", ["foobar"]),
      builtinError("crypto.x509.parse_certificates: illegal base64 data at input byte 4"),
    );
    assert.throws(
      () => callBuiltin("crypto.x509.parse_certificates", ["YmFkc3RyaW5n"]),
      builtinError("crypto.x509.parse_certificates: x509: malformed certificate"),
    );
  });

  test("parse_and_verify_certificates checks the chain from the root (first) to the leaf (last)", () => {
    const out = callBuiltin("crypto.x509.parse_and_verify_certificates", [
      root + intermediate + leaf,
    ]) as unknown[];
    assert.equal(out[0], true);
    const names = (out[1] as RegoObject[]).map((c) =>
      (c.get("Subject") as RegoObject).get("CommonName"),
    );
    assert.deepEqual(names, [
      "notarealsite.opa.localhost",
      "OPA Test Intermediate CA",
      "OPA Test Root CA",
    ]);
    assert.equal(callJSON("crypto.x509.parse_and_verify_certificates", root + leaf), "[false,[]]");
    assert.equal(
      callJSON(
        "crypto.x509.parse_and_verify_certificates_with_options",
        root + intermediate + leaf,
        { DNSName: "other.example" },
      ),
      "[false,[]]",
    );
  });

  test("verify options are checked and CurrentTime moves the validity window", () => {
    const fn = "crypto.x509.parse_and_verify_certificates_with_options";
    const chain = root + intermediate + leaf;
    const in2040 = 2_208_988_800_000_000_000n;
    assert.equal(callJSON(fn, chain, { CurrentTime: in2040 }), "[false,[]]");
    const ok = callBuiltin(fn, [
      chain,
      { KeyUsages: ["KeyUsageServerAuth"], DNSName: "notarealsite.opa.localhost" },
    ]);
    assert.equal((ok as unknown[])[0], true);
    assert.throws(
      () => callBuiltin(fn, [chain, { Bogus: 1 }]),
      builtinError(`${fn}: invalid key option`),
    );
    assert.throws(
      () => callBuiltin(fn, [chain, { KeyUsages: ["KeyUsageNope"] }]),
      builtinError(`${fn}: invalid entries for 'KeyUsages' found: [KeyUsageNope]`),
    );
    assert.throws(
      () => callBuiltin(fn, [chain, { DNSName: 1 }]),
      builtinError(`${fn}: 'DNSName' should be a string`),
    );
  });

  test("parse_rsa_private_key returns a JWK and parse_private_keys Go's key structures", () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const pem = privateKey.export({ format: "pem", type: "pkcs1" }) as string;
    const jwk = callBuiltin("crypto.x509.parse_rsa_private_key", [pem]) as RegoObject;
    assert.equal(jwk.get("kty"), "RSA");
    assert.equal(typeof jwk.get("qi"), "string");
    const keys = callBuiltin("crypto.parse_private_keys", [pem + pem]) as RegoObject[];
    assert.equal(keys.length, 2);
    assert.equal(keys[0]?.get("E"), 65537);
    assert.equal(callJSON("crypto.x509.parse_rsa_private_key", "LS0tLQ=="), "null");
    assert.equal(callJSON("crypto.parse_private_keys", "nope"), "[]");
    assert.equal(callJSON("crypto.parse_private_keys", ""), "null");
    assert.throws(() => callBuiltin("crypto.x509.parse_rsa_private_key", ["invalid"]), {
      message: /illegal base64/,
    });
  });
});
