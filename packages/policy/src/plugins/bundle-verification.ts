/**
 * The one place a downloaded bundle's signatures are checked before activation: the
 * bundle plugin calls `verifyDownloadedBundle` for every bundle whose configuration asks
 * for verification (`bundles.<name>.signing`, or any `keys` configured), with the archive's
 * files, and activates nothing when it throws.
 */
import type { TarEntry } from "../loader/tar.js";
import type { KeyConfig, SigningConfig } from "./config-file.js";

/** A downloaded (or persisted) bundle, as the verifier sees it. */
export interface DownloadedBundle {
  readonly name: string;
  /** The gzipped archive as received. */
  readonly gzipped: Buffer;
  /** Its regular files, names as written in the archive (`.signatures.json` included). */
  readonly files: readonly TarEntry[];
}

/** Throws (with the reason as message) when the bundle must not be activated. */
export type BundleVerifier = (
  bundle: DownloadedBundle,
  signing: SigningConfig,
  keys: Readonly<Record<string, KeyConfig>>,
) => void;

/**
 * WIRING POINT for src/bundle/verify.ts (issue 13, signing): replace this body with the
 * call to the verifier. Until then a bundle configured for verification is refused, never
 * activated unverified.
 */
export const verifyDownloadedBundle: BundleVerifier = (bundle) => {
  throw new Error(`bundle ${bundle.name}: signature verification is not available in this build`);
};
