/**
 * The one place a downloaded bundle's signatures are checked before activation. The bundle
 * plugin calls `verifyDownloadedBundle` for every bundle it downloads or loads from disk,
 * with the archive's files and the bundle's verification settings (from its `signing`
 * section, or implied when only `keys` is configured: OPA then verifies every bundle;
 * undefined when no verification is configured: an unsigned bundle is accepted and a signed
 * one refused). When it throws, nothing is activated and its message (prefixed
 * `bundle <name>: `) becomes the bundle's status.
 */
import type { VerificationConfig } from "../bundle/keys-config.js";
import { verifyBundle } from "../bundle/verify.js";
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
  /** The bundle's verification settings, validated with the configuration. */
  verification: VerificationConfig | undefined,
) => void;

/**
 * OPA's checks (src/bundle/verify.ts): with verification configured, the signatures must
 * cover exactly the archive's files; without it, an unsigned bundle is accepted and a signed
 * one refused (`verification key not provided`).
 */
export const verifyDownloadedBundle: BundleVerifier = (bundle, verification) => {
  verifyBundle(bundle.files, verification);
};
