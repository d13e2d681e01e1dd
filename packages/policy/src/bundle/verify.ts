/**
 * Bundle signature verification as OPA performs it when it reads a bundle: the one JWT of
 * `.signatures.json` is verified with the configured key, its scope compared, then every
 * file of the bundle must be listed in its `files` with a matching digest, and every listed
 * file must be present. Each failure carries OPA's message (callers prefix it with
 * `bundle <name>: `).
 */

import { decodeRawUrl, verifyCompact } from "../lib/jws/compact.js";
import { verificationKey } from "../lib/jws/pem-keys.js";
import { globMatch } from "./glob.js";
import { type GoJson, goMarshal, JsonNumber, parseGoJson } from "./go-json.js";
import { hashBundleFile } from "./hash.js";
import type { VerificationConfig } from "./keys-config.js";

/** One file of a bundle: its name inside the bundle (no leading slash) and its bytes. */
export interface BundleFile {
  readonly name: string;
  readonly content: Buffer;
}

/** `.signatures.json`: the JWTs (OPA accepts exactly one) and an optional plugin name. */
export interface SignaturesConfig {
  /** Undefined when the file had no `signatures` member (OPA then treats it as absent). */
  readonly signatures?: readonly string[];
  readonly plugin?: string;
}

/** One entry of a signature's `files`. */
export interface SignedFile {
  readonly name: string;
  readonly hash: string;
  readonly algorithm: string;
}

/** A bundle that fails verification; the message is OPA's. */
export class BundleVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BundleVerificationError";
  }
}

/** Whether OPA takes a bundle file for the signatures file (by suffix, as OPA does). */
export function isSignaturesFile(name: string): boolean {
  return name.endsWith("signatures.json");
}

function isEmpty(s: SignaturesConfig | undefined): boolean {
  return s === undefined || (s.signatures === undefined && !s.plugin);
}

function asString(v: GoJson | undefined): string {
  return typeof v === "string" ? v : "";
}

/** Parses `.signatures.json`; throws OPA's message when it is not a signatures document. */
export function parseSignaturesFile(content: Buffer): SignaturesConfig {
  let doc: GoJson;
  try {
    doc = parseGoJson(content.toString("utf8"));
  } catch (e) {
    throw new BundleVerificationError(
      `bundle load failed on signatures decode: ${(e as Error).message}`,
    );
  }
  if (!(doc instanceof Map))
    throw new BundleVerificationError(
      "bundle load failed on signatures decode: json: cannot unmarshal into Go value of type bundle.SignaturesConfig",
    );
  const list = doc.get("signatures");
  let signatures: string[] | undefined;
  if (Array.isArray(list)) {
    if (!list.every((t) => typeof t === "string"))
      throw new BundleVerificationError(
        "bundle load failed on signatures decode: json: cannot unmarshal into Go struct field SignaturesConfig.signatures of type string",
      );
    signatures = list as string[];
  }
  return { signatures, plugin: asString(doc.get("plugin")) || undefined };
}

function decodeJsonPart(part: string, what: "headers" | "payload"): Map<string, GoJson> {
  let bytes: Buffer;
  try {
    bytes = decodeRawUrl(part);
  } catch (e) {
    throw new Error(
      what === "headers"
        ? `failed to base64 decode JWT headers: ${(e as Error).message}`
        : (e as Error).message,
    );
  }
  let doc: GoJson;
  try {
    doc = parseGoJson(bytes.toString("utf8"));
  } catch (e) {
    throw new Error(
      what === "headers"
        ? `failed to parse JWT headers: ${(e as Error).message}`
        : (e as Error).message,
    );
  }
  if (!(doc instanceof Map))
    throw new Error(`json: cannot unmarshal ${goMarshal(doc).slice(0, 20)} into the JWT ${what}`);
  return doc;
}

function signedFiles(payload: Map<string, GoJson>): SignedFile[] {
  const files = payload.get("files");
  if (files === undefined || files === null) return [];
  if (!Array.isArray(files))
    throw new Error("json: cannot unmarshal files into Go struct field of type []bundle.FileInfo");
  return files.map((f) => {
    if (!(f instanceof Map))
      throw new Error("json: cannot unmarshal files into Go struct field of type bundle.FileInfo");
    return {
      name: asString(f.get("name")),
      hash: asString(f.get("hash")),
      algorithm: asString(f.get("algorithm")),
    };
  });
}

/** Verifies the token and returns the files it signs, by name. */
function verifyToken(token: string, config: VerificationConfig): Map<string, SignedFile> {
  const parts = token.split(".");
  if (parts.length < 3) throw new Error("Failed to split compact serialization");
  const header = decodeJsonPart(parts[0] as string, "headers");
  const payload = decodeJsonPart(parts[1] as string, "payload");
  const keyId = config.keyId || asString(header.get("kid")) || asString(payload.get("keyid"));
  if (keyId === "") throw new Error("verification key ID is empty");
  const keyConfig = config.publicKeys.get(keyId);
  if (!keyConfig) throw new Error(`verification key corresponding to ID ${keyId} not found`);
  verifyCompact(token, keyConfig.algorithm, verificationKey(keyConfig.key, keyConfig.algorithm));
  const scope = config.scope || keyConfig.scope;
  const claimed = payload.get("scope");
  if ((claimed instanceof JsonNumber ? claimed.text : asString(claimed)) !== scope)
    throw new Error("scope mismatch");
  return new Map(signedFiles(payload).map((f) => [f.name, f]));
}

/** Go's hex.DecodeString, with its error texts. */
function decodeHex(text: string): Buffer {
  const bad = /[^0-9a-fA-F]/.exec(text);
  if (bad) {
    const ch = bad[0];
    const code = (ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
    throw new Error(`encoding/hex: invalid byte: U+${code} '${ch}'`);
  }
  if (text.length % 2 === 1) throw new Error("encoding/hex: odd length hex string");
  return Buffer.from(text, "hex");
}

function verifyFile(file: BundleFile, signed: Map<string, SignedFile>): void {
  const entry = signed.get(file.name);
  if (!entry) throw new Error(`file ${file.name} not included in bundle signature`);
  if (entry.algorithm === "")
    throw new Error(`no hashing algorithm provided for file ${file.name}`);
  const actual = hashBundleFile(file.name, file.content, entry.algorithm);
  const wanted = decodeHex(entry.hash);
  if (!wanted.equals(actual))
    throw new Error(
      `${file.name}: digest mismatch (want: ${wanted.toString("hex")}, got: ${actual.toString("hex")})`,
    );
  signed.delete(file.name);
}

/** Options of one verification. */
export interface VerifyOptions {
  /** OPA's `--skip-verify`: accept the bundle without looking at its signature. */
  readonly skipVerify?: boolean;
}

/**
 * Verifies a bundle's files (all of them, `.signatures.json` included, in bundle order)
 * against its signature. `config` undefined means no key was configured: an unsigned
 * bundle is then accepted and a signed one refused (`verification key not provided`), as
 * OPA does. Throws BundleVerificationError with OPA's message.
 */
export function verifyBundle(
  files: readonly BundleFile[],
  config: VerificationConfig | undefined,
  options: VerifyOptions = {},
): void {
  if (options.skipVerify) return;
  let signatures: SignaturesConfig | undefined;
  for (const f of files) if (isSignaturesFile(f.name)) signatures = parseSignaturesFile(f.content);
  try {
    if (isEmpty(signatures)) {
      if (config && config.keyId !== "") throw new Error("bundle missing .signatures.json file");
      return;
    }
    if (!config) throw new Error("verification key not provided");
    const tokens = signatures?.signatures ?? [];
    if (tokens.length === 0)
      throw new Error(".signatures.json: missing JWT (expected exactly one)");
    if (tokens.length > 1)
      throw new Error(".signatures.json: multiple JWTs not supported (expected exactly one)");
    const signed = verifyToken(tokens[0] as string, config);
    for (const f of files) {
      if (isSignaturesFile(f.name)) continue;
      if (config.exclude.some((pattern) => globMatch(pattern, f.name))) signed.delete(f.name);
      else verifyFile(f, signed);
    }
    if (signed.size > 0)
      throw new Error(
        `file(s) [${[...signed.keys()].sort().join(" ")}] specified in bundle signatures but not found in the target bundle`,
      );
  } catch (e) {
    if (e instanceof BundleVerificationError) throw e;
    throw new BundleVerificationError((e as Error).message);
  }
}
