/**
 * crypto builtins: digests and HMACs, X.509 certificate / request / key-pair parsing and chain
 * verification, and private key parsing. Results follow the JSON OPA derives from Go's types.
 */
import { createHash, createHmac, timingSafeEqual, X509Certificate } from "node:crypto";
import { BuiltinError } from "../../errors.js";
import { RegoObject, type Value } from "../../value/value.js";
import { asObject, asString } from "../args.js";
import type { BuiltinDef } from "../registry-types.js";
import { certificatesFromString, verifyChain } from "./certificates.js";
import { DerError } from "./der.js";
import { namedErrors } from "./error-prefix.js";
import { goBase64Decode, pemDecode } from "./go-encoding.js";
import {
  goPrivateKeyValue,
  jwkValue,
  keyMatchesCertificate,
  pemText,
  privateKeysFromPem,
} from "./private-keys.js";
import { type ChainOptions, chainOptions } from "./verify-options.js";
import { certificateRequestValue, certificateValue } from "./x509-json.js";

function digest(name: string, algorithm: string): BuiltinDef {
  return {
    name,
    args: ["string"],
    result: "string",
    impl: ([x]) =>
      createHash(algorithm)
        .update(asString(name, x as Value, 1), "utf8")
        .digest("hex"),
  };
}

function hmac(name: string, algorithm: string): BuiltinDef {
  return {
    name,
    args: ["string", "string"],
    result: "string",
    impl: ([x, key]) =>
      createHmac(algorithm, asString(name, key as Value, 2))
        .update(asString(name, x as Value, 1), "utf8")
        .digest("hex"),
  };
}

function certificateValues(ders: Buffer[], withUriStrings = true): Value[] {
  try {
    return ders.map((der) => certificateValue(der, withUriStrings));
  } catch (e) {
    if (e instanceof DerError || e instanceof TypeError)
      throw new BuiltinError("x509: malformed certificate");
    throw e;
  }
}

function extKeyUsagesOf(der: Buffer): number[] | null {
  const v = certificateValue(der).get("ExtKeyUsage");
  return Array.isArray(v) ? (v as number[]) : null;
}

/**
 * `[valid, chain]` for certificates given trust anchor first and leaf last; the chain comes
 * back leaf first. Unreadable or unverifiable input is simply not valid.
 */
function parseAndVerify(
  text: string,
  opts: ChainOptions,
  nowNs: bigint,
  withUriStrings: boolean,
): Value {
  let ders: Buffer[];
  try {
    ders = certificatesFromString(text);
  } catch {
    return [false, []];
  }
  const chain = verifyChain(ders, {
    now: opts.nowMs ?? Number(nowNs / 1_000_000n),
    dnsName: opts.dnsName,
    keyUsages: opts.keyUsages.length > 0 ? opts.keyUsages : [1],
    extKeyUsagesOf,
  });
  return chain ? [true, certificateValues(chain, withUriStrings)] : [false, []];
}

function parseCertificateRequest(fn: string, input: string): Value {
  let bytes: Buffer;
  if (input.startsWith("-----BEGIN CERTIFICATE REQUEST-----")) bytes = Buffer.from(input, "latin1");
  else {
    try {
      bytes = goBase64Decode(input);
    } catch (e) {
      throw new BuiltinError(`${fn}: ${(e as Error).message}`);
    }
  }
  const { block } = pemDecode(bytes.toString("latin1"));
  if (block && block.type !== "CERTIFICATE REQUEST") {
    throw new BuiltinError(`${fn}: invalid PEM-encoded certificate signing request`);
  }
  try {
    return certificateRequestValue(block ? block.bytes : bytes);
  } catch (e) {
    const detail = e instanceof DerError ? e.message : "malformed request";
    throw new BuiltinError(`${fn}: asn1: structure error: ${detail}`);
  }
}

function parseKeyPair(fn: string, certText: string, keyText: string): Value {
  const ders = certificatesFromString(pemText(certText));
  const [key] = privateKeysFromPem(pemText(keyText));
  if (!ders[0]) throw new BuiltinError("tls: failed to find any PEM data in certificate input");
  if (!key) throw new BuiltinError("tls: failed to find any PEM data in key input");
  const leaf = new X509Certificate(ders[0]);
  if (!keyMatchesCertificate(key, leaf.publicKey.export({ format: "der", type: "spki" }))) {
    throw new BuiltinError(`${fn}: tls: private key does not match public key`);
  }
  return RegoObject.fromEntries([
    ["Certificate", ders.map((d) => d.toString("base64"))],
    ["PrivateKey", goPrivateKeyValue(key)],
    ["SupportedSignatureAlgorithms", null],
    ["OCSPStaple", null],
    ["SignedCertificateTimestamps", null],
    ["Leaf", certificateValues([ders[0]], false)[0] as Value],
  ]);
}

const definitions: BuiltinDef[] = [
  digest("crypto.md5", "md5"),
  digest("crypto.sha1", "sha1"),
  digest("crypto.sha256", "sha256"),
  hmac("crypto.hmac.md5", "md5"),
  hmac("crypto.hmac.sha1", "sha1"),
  hmac("crypto.hmac.sha256", "sha256"),
  hmac("crypto.hmac.sha512", "sha512"),
  {
    name: "crypto.hmac.equal",
    args: ["string", "string"],
    result: "boolean",
    impl: ([a, b]) => {
      const x = Buffer.from(asString("crypto.hmac.equal", a as Value, 1), "utf8");
      const y = Buffer.from(asString("crypto.hmac.equal", b as Value, 2), "utf8");
      return x.length === y.length && timingSafeEqual(x, y);
    },
  },
  {
    name: "crypto.x509.parse_certificates",
    args: ["string"],
    result: "array[object]",
    impl: ([certs]) =>
      certificateValues(
        certificatesFromString(asString("crypto.x509.parse_certificates", certs as Value, 1)),
      ),
  },
  {
    name: "crypto.x509.parse_and_verify_certificates",
    args: ["string"],
    result: "array",
    impl: ([certs], ctx) => {
      const fn = "crypto.x509.parse_and_verify_certificates";
      return parseAndVerify(
        asString(fn, certs as Value, 1),
        chainOptions(undefined),
        ctx.nowNs,
        true,
      );
    },
  },
  {
    name: "crypto.x509.parse_and_verify_certificates_with_options",
    args: ["string", "object"],
    result: "array",
    impl: ([certs, options], ctx) => {
      const fn = "crypto.x509.parse_and_verify_certificates_with_options";
      const text = asString(fn, certs as Value, 1);
      return parseAndVerify(
        text,
        chainOptions(asObject(fn, options as Value, 2)),
        ctx.nowNs,
        false,
      );
    },
  },
  {
    name: "crypto.x509.parse_certificate_request",
    args: ["string"],
    result: "object",
    impl: ([csr]) => {
      const fn = "crypto.x509.parse_certificate_request";
      return parseCertificateRequest(fn, asString(fn, csr as Value, 1));
    },
  },
  {
    name: "crypto.x509.parse_keypair",
    args: ["string", "string"],
    result: "object",
    impl: ([cert, key]) => {
      const fn = "crypto.x509.parse_keypair";
      return parseKeyPair(fn, asString(fn, cert as Value, 1), asString(fn, key as Value, 2));
    },
  },
  {
    name: "crypto.x509.parse_rsa_private_key",
    args: ["string"],
    result: "object",
    impl: ([pem]) => {
      const text = asString("crypto.x509.parse_rsa_private_key", pem as Value, 1);
      if (text === "") throw new BuiltinError("input PEM data was empty");
      const [key] = privateKeysFromPem(pemText(text));
      return key ? jwkValue(key) : null;
    },
  },
  {
    name: "crypto.parse_private_keys",
    args: ["string"],
    result: "array[object]",
    impl: ([keys]) => {
      const text = asString("crypto.parse_private_keys", keys as Value, 1);
      if (text === "") return null;
      let pem = text;
      try {
        pem = goBase64Decode(text).toString("latin1");
      } catch {
        // Not base64: the text itself is read as PEM.
      }
      return privateKeysFromPem(pem).map(goPrivateKeyValue);
    },
  },
];

export const cryptoBuiltins: BuiltinDef[] = definitions.map(namedErrors);
