/**
 * The one place a downloaded bundle's signatures are checked before activation. The bundle
 * plugin calls `verifyDownloadedBundle` for every bundle it downloads or loads from disk,
 * with the archive's files and the bundle's `signing` section (`{}` when only `keys` is
 * configured: OPA then verifies every bundle; undefined when no verification is configured:
 * an unsigned bundle is accepted and a signed one refused). When it throws, nothing is
 * activated and its message (prefixed `bundle <name>: `) becomes the bundle's status.
 */
import type { TarEntry } from "../loader/tar.js";

/** A downloaded (or persisted) bundle, as the verifier sees it. */
export interface DownloadedBundle {
  readonly name: string;
  /** The gzipped archive as received. */
  readonly gzipped: Buffer;
  /** Its regular files in archive order, names without a leading `/` or `./`. */
  readonly files: readonly TarEntry[];
}

/** Throws (with the reason as message) when the bundle must not be activated. */
export type BundleVerifier = (
  bundle: DownloadedBundle,
  /** `bundles.<name>.signing` as configured (validated), `{}` when implied by `keys`. */
  signing: Readonly<Record<string, unknown>> | undefined,
  /** The configuration's `keys` section as written (validated). */
  keys: Readonly<Record<string, unknown>>,
) => void;

/** True when the archive carries a signatures file. */
function isSigned(bundle: DownloadedBundle): boolean {
  return bundle.files.some((f) => f.name === ".signatures.json");
}

/**
 * WIRING POINT for src/bundle/verify.ts (issue 13, signing): this body becomes one call,
 * `verifyBundle(bundle.files, signing && verificationConfigFor(signing, parseKeysConfig(keys)))`.
 * Until then: an unsigned bundle without verification configured is accepted, a signed one
 * is refused as OPA refuses it without keys, and a bundle configured for verification is
 * refused rather than activated unverified.
 */
export const verifyDownloadedBundle: BundleVerifier = (bundle, signing) => {
  if (signing === undefined) {
    if (isSigned(bundle)) throw new Error("verification key not provided");
    return;
  }
  throw new Error("signature verification is not available in this build");
};
