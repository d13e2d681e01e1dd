/**
 * File digests of bundle signatures, as OPA computes them (bundle/hash.go): structured files
 * (`data.json`, `data.yaml`, `.manifest`, `signatures.json`, by base name) are parsed and
 * hashed over a canonical form, objects with their keys sorted and no whitespace, so the
 * digest does not depend on formatting or key order; every other file over its raw bytes.
 */
import { createHash } from "node:crypto";
import { parse as parseYaml } from "yaml";
import { type GoJson, GoJsonSyntaxError, goJsonFrom, goMarshal, parseGoJson } from "./go-json.js";

/** The hashing algorithms OPA accepts in a signature's `files[].algorithm`. */
const NODE_HASHES: Record<string, string> = {
  MD5: "md5",
  "SHA-1": "sha1",
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
  "SHA-512-224": "sha512-224",
  "SHA-512-256": "sha512-256",
};

/** The algorithm OPA's signers write. */
export const DEFAULT_HASHING_ALGORITHM = "SHA-256";

/** Whether OPA hashes the file by its parsed content (by its base name, as OPA decides). */
export function isStructuredDoc(name: string): boolean {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return (
    base === "data.json" ||
    base === "data.yaml" ||
    base === "signatures.json" ||
    base === ".manifest"
  );
}

/**
 * Parses a structured file as OPA's util.Unmarshal does: JSON when the text is valid JSON
 * (numbers kept as written), otherwise YAML converted to JSON.
 */
export function parseStructured(content: Buffer): GoJson {
  const text = content.toString("utf8");
  try {
    return parseGoJson(text);
  } catch (e) {
    if (!(e instanceof GoJsonSyntaxError)) throw e;
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { intAsBigInt: true });
  } catch (e) {
    throw new Error(`error converting YAML to JSON: ${(e as Error).message.split("\n")[0]}`);
  }
  return goJsonFrom(parsed);
}

/** The canonical bytes OPA's hasher writes for a parsed document. */
export function canonicalBytes(value: GoJson): Buffer {
  return Buffer.from(goMarshal(value, false), "utf8");
}

/** Thrown for a `files[].algorithm` OPA does not know. */
export function nodeHashName(algorithm: string): string {
  const name = NODE_HASHES[algorithm];
  if (name === undefined) throw new Error(`unsupported hashing algorithm: ${algorithm}`);
  return name;
}

/** The digest of `content` as the signature of file `name` records it. */
export function hashBundleFile(
  name: string,
  content: Buffer,
  algorithm = DEFAULT_HASHING_ALGORITHM,
): Buffer {
  const hash = createHash(nodeHashName(algorithm));
  hash.update(isStructuredDoc(name) ? canonicalBytes(parseStructured(content)) : content);
  return hash.digest();
}

/** The digest of an in-memory document (OPA hashes `opa build`'s merged data this way). */
export function hashDocument(value: GoJson, algorithm = DEFAULT_HASHING_ALGORITHM): Buffer {
  return createHash(nodeHashName(algorithm)).update(canonicalBytes(value)).digest();
}
