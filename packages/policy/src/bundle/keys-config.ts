/**
 * Keys that sign and verify bundles, as OPA configures them: the `keys` section of its
 * configuration (`keys: {<id>: {algorithm, key | private_key, scope}}`), a bundle's
 * `signing: {keyid, scope, exclude_files}` section, and the command-line form
 * (`--verification-key` names a PEM file or is the key or HMAC secret itself).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { SIGNING_ALGORITHMS } from "../lib/jws/compact.js";

/** One entry of OPA's `keys` configuration. */
export interface KeyConfig {
  /** PEM public key, or the HMAC secret. */
  readonly key: string;
  /** PEM private key (for signing). */
  readonly privateKey: string;
  readonly algorithm: string;
  readonly scope: string;
}

/** How one bundle's signature is verified (OPA's VerificationConfig). */
export interface VerificationConfig {
  readonly publicKeys: ReadonlyMap<string, KeyConfig>;
  /** The key to use; empty: the token's `kid` header, then its `keyid` claim. */
  readonly keyId: string;
  /** The scope the token must carry; empty: the key's own scope. */
  readonly scope: string;
  /** Glob patterns (Go's filepath.Match) of files not checked against the signature. */
  readonly exclude: readonly string[];
}

/** OPA's default signing algorithm. */
export const DEFAULT_SIGNING_ALGORITHM = "RS256";

/** A configuration problem, named by where it is. */
export class KeysConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeysConfigError";
  }
}

/** A `signing.keyid` that names no configured key (OPA: `key id <id> not found`). */
export class UnknownKeyIdError extends KeysConfigError {
  constructor(keyId: string) {
    super(`key id ${keyId} not found`);
    this.name = "UnknownKeyIdError";
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function optionalString(entry: Record<string, unknown>, field: string, where: string): string {
  const v = entry[field];
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") throw new KeysConfigError(`${where}.${field}: must be a string`);
  return v;
}

/**
 * Parses OPA's `keys` section; throws KeysConfigError with OPA's message for a key without
 * `key`/`private_key` or an unsupported algorithm.
 */
export function parseKeysConfig(raw: unknown): Map<string, KeyConfig> {
  const keys = new Map<string, KeyConfig>();
  if (raw === undefined || raw === null) return keys;
  if (!isObject(raw)) throw new KeysConfigError("keys: must be an object of key IDs");
  for (const [id, entry] of Object.entries(raw)) {
    if (!isObject(entry)) throw new KeysConfigError(`keys.${id}: must be an object`);
    const where = `keys.${id}`;
    const config: KeyConfig = {
      key: optionalString(entry, "key", where),
      privateKey: optionalString(entry, "private_key", where),
      algorithm: optionalString(entry, "algorithm", where) || DEFAULT_SIGNING_ALGORITHM,
      scope: optionalString(entry, "scope", where),
    };
    if (config.key === "" && config.privateKey === "")
      throw new KeysConfigError(`invalid keys configuration: no keys provided for key ID ${id}`);
    if (!SIGNING_ALGORITHMS.includes(config.algorithm))
      throw new KeysConfigError(`unsupported algorithm '${config.algorithm}'`);
    keys.set(id, config);
  }
  return keys;
}

/**
 * A bundle's `signing` section checked against the keys: `keyid` must name one of them
 * (OPA: `key id <id> not found`).
 */
export function verificationConfigFor(
  signing: unknown,
  keys: ReadonlyMap<string, KeyConfig>,
  where = "signing",
): VerificationConfig {
  if (!isObject(signing)) throw new KeysConfigError(`${where}: must be an object`);
  const keyId = optionalString(signing, "keyid", where);
  const scope = optionalString(signing, "scope", where);
  const exclude = signing.exclude_files ?? [];
  if (!Array.isArray(exclude) || !exclude.every((e) => typeof e === "string"))
    throw new KeysConfigError(`${where}.exclude_files: must be a list of strings`);
  if (keyId !== "" && !keys.has(keyId)) throw new UnknownKeyIdError(keyId);
  return { publicKeys: keys, keyId, scope, exclude };
}

/**
 * The key text a command-line flag gives: the file's content when it names a file, the
 * flag's value itself otherwise (an HMAC secret, or PEM text), as OPA reads it.
 */
export function keyFromFlag(value: string): string {
  if (value.startsWith("-----BEGIN")) return value;
  if (existsSync(value) && statSync(value).isFile()) return readFileSync(value, "utf8");
  return value;
}

/** The verification settings of `--verification-key` and its companion flags. */
export function verificationConfigFromFlags(flags: {
  key: string;
  keyId: string;
  algorithm: string;
  scope: string;
  exclude: readonly string[];
}): VerificationConfig {
  const config: KeyConfig = {
    key: keyFromFlag(flags.key),
    privateKey: "",
    algorithm: flags.algorithm,
    scope: flags.scope,
  };
  return {
    publicKeys: new Map([[flags.keyId, config]]),
    keyId: flags.keyId,
    scope: flags.scope,
    exclude: flags.exclude,
  };
}
