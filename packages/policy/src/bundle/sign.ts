/**
 * Bundle signing as OPA does it: every file (but the signatures file) is hashed, the list
 * `files: [{name, hash, algorithm}]` becomes the JWT payload (with the claims of
 * `--claims-file`, or the deprecated `keyid` claim), and the token is written to
 * `.signatures.json` as `{"signatures": [<JWT>]}` indented by one space.
 */
import { readFileSync } from "node:fs";
import { jsonString } from "@quintet/gostd/json";
import { signCompact } from "../lib/jws/compact.js";
import { signingKey } from "../lib/jws/pem-keys.js";
import { type GoJson, goMarshal, parseGoJson } from "./go-json.js";
import { DEFAULT_HASHING_ALGORITHM, hashBundleFile } from "./hash.js";
import { DEFAULT_SIGNING_ALGORITHM } from "./keys-config.js";
import { type BundleFile, isSignaturesFile, type SignedFile } from "./verify.js";

/** How a bundle is signed (OPA's SigningConfig, the plugin aside). */
export interface SigningConfig {
  /** PEM private key text, or the HMAC secret. */
  readonly key: string;
  /** Default RS256. */
  readonly algorithm?: string;
  /** Extra claims (the `--claims-file` object); they replace `files` if they name it. */
  readonly claims?: ReadonlyMap<string, GoJson>;
}

/** The `files` entries of a signature for these bundle files, in their order. */
export function signedFileList(files: readonly BundleFile[]): SignedFile[] {
  return files
    .filter((f) => !isSignaturesFile(f.name))
    .map((f) => ({
      name: f.name.replace(/^\//, ""),
      hash: hashBundleFile(f.name, f.content).toString("hex"),
      algorithm: DEFAULT_HASHING_ALGORITHM,
    }));
}

/** A `files` entry as Go marshals the struct: name, hash, algorithm. */
function fileJson(f: SignedFile): string {
  return `{"name":${jsonString(f.name, true)},"hash":${jsonString(f.hash, true)},"algorithm":${jsonString(f.algorithm, true)}}`;
}

/** The JWT payload: a Go map, so its keys come out sorted. */
function payloadJson(files: readonly SignedFile[], config: SigningConfig, keyId: string): string {
  const members = new Map<string, string>([["files", `[${files.map(fileJson).join(",")}]`]]);
  if (config.claims) {
    for (const [k, v] of config.claims) members.set(k, goMarshal(v));
  } else if (keyId !== "") members.set("keyid", jsonString(keyId, true));
  const keys = [...members.keys()].sort((a, b) =>
    Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")),
  );
  return `{${keys.map((k) => `${jsonString(k, true)}:${members.get(k)}`).join(",")}}`;
}

/**
 * The signed token for `files`. A non-empty `keyId` goes into the header's `kid` and, with
 * no claims file, the `keyid` claim (what `opa build` writes; `opa sign` passes none).
 */
export function generateSignedToken(
  files: readonly SignedFile[],
  config: SigningConfig,
  keyId = "",
): string {
  const alg = config.algorithm || DEFAULT_SIGNING_ALGORITHM;
  const key = signingKey(config.key, alg);
  return signCompact(payloadJson(files, config, keyId), alg, key, keyId || undefined);
}

/** The token for a bundle's files (its signatures file, if any, left out). */
export function signBundleFiles(
  files: readonly BundleFile[],
  config: SigningConfig,
  keyId = "",
): string {
  return generateSignedToken(signedFileList(files), config, keyId);
}

/** `.signatures.json` as OPA writes it: one-space indentation, no final newline. */
export function signaturesFileText(token: string): string {
  return `{\n "signatures": [\n  ${jsonString(token, true)}\n ]\n}`;
}

/** Reads `--claims-file`: a JSON object whose members join the payload. */
export function readClaimsFile(path: string): Map<string, GoJson> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const reason =
      (e as NodeJS.ErrnoException).code === "ENOENT"
        ? "no such file or directory"
        : (e as Error).message;
    throw new Error(`open ${path}: ${reason}`);
  }
  const claims = parseGoJson(text);
  if (!(claims instanceof Map))
    throw new Error(
      "json: cannot unmarshal claims file into Go value of type map[string]interface {}",
    );
  return claims;
}
