/**
 * Bundle mode (`-b`): every path is a bundle, a directory or a `.tar.gz`, read whole,
 * verified against its `.signatures.json` and checked against its manifest roots before
 * anything of it is used. A failure names
 * the bundle as OPA does (`bundle <path>: <reason>`).
 */
import { readFileSync, statSync } from "node:fs";
import type { VerificationConfig } from "../bundle/keys-config.js";
import { verifyBundle } from "../bundle/verify.js";
import { RegoObject } from "../value/value.js";
import {
  type BundleContents,
  bundleFromEntries,
  directoryEntries,
  tarballEntries,
} from "./bundle.js";
import { validateBundleRoots } from "./bundle-roots.js";
import { mergeAt } from "./data-document.js";
import type { LoadedFiles, PolicySource } from "./load-paths.js";

/** How bundles are checked while loading. */
export interface BundleLoadOptions {
  /** The key configuration; undefined: unsigned bundles load, signed ones are refused. */
  readonly verification?: VerificationConfig;
  /** `--skip-verify`: signatures are not looked at. */
  readonly skipVerify?: boolean;
}

/** A bundle that could not be read or verified; the message is OPA's. */
export class BundleLoadError extends Error {
  readonly code = "bundle_error";
  constructor(
    readonly bundle: string,
    readonly reason: string,
  ) {
    super(`bundle ${bundle}: ${reason}`);
    this.name = "BundleLoadError";
  }
}

/** Reads and verifies one bundle (directory or gzipped tarball). */
export function readBundlePath(path: string, options: BundleLoadOptions = {}): BundleContents {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new BundleLoadError(path, `error reading "${path}": ${(e as Error).message}`);
  }
  if (!isDir) {
    let gzipped: Buffer;
    try {
      gzipped = readFileSync(path);
    } catch (e) {
      throw new BundleLoadError(path, `error reading "${path}": ${(e as Error).message}`);
    }
    return readVerifiedBundle(path, gzipped, options);
  }
  try {
    const entries = directoryEntries(path);
    verifyBundle(entries, options.verification, { skipVerify: options.skipVerify });
    const label = path.replace(/\/+$/, "");
    const bundle = bundleFromEntries(label, entries);
    validateBundleRoots(bundle, (inside) => `${label}/${inside}`);
    return bundle;
  } catch (e) {
    throw new BundleLoadError(path, (e as Error).message);
  }
}

/**
 * Reads and verifies a gzipped bundle held in memory (a download, say); `name` labels its
 * policies and the error. Throws BundleLoadError with OPA's reason.
 */
export function readVerifiedBundle(
  name: string,
  gzipped: Buffer,
  options: BundleLoadOptions = {},
): BundleContents {
  try {
    const entries = tarballEntries(gzipped);
    verifyBundle(entries, options.verification, { skipVerify: options.skipVerify });
    const bundle = bundleFromEntries(name, entries);
    validateBundleRoots(bundle, (inside) => `/${inside}`);
    return bundle;
  } catch (e) {
    throw new BundleLoadError(name, (e as Error).message);
  }
}

/** Loads every path as a bundle and merges their policies and data. */
export function loadBundlePaths(
  paths: readonly string[],
  options: BundleLoadOptions = {},
): LoadedFiles & { contents: BundleContents[] } {
  const modules: PolicySource[] = [];
  const dataFiles: { file: string; path: string[] }[] = [];
  const bundles: { name: string; roots: string[] }[] = [];
  const contents: BundleContents[] = [];
  let data = new RegoObject();
  for (const path of paths) {
    const bundle = readBundlePath(path, options);
    contents.push(bundle);
    modules.push(...bundle.modules);
    bundles.push({ name: path, roots: bundle.roots });
    for (const doc of bundle.documents) {
      try {
        data = mergeAt(data, doc.path, doc.value);
      } catch (e) {
        throw new BundleLoadError(
          path,
          `bundle load failed on ${doc.file}: ${(e as Error).message}`,
        );
      }
      dataFiles.push({ file: doc.file, path: doc.path });
    }
  }
  return { modules, data, dataFiles, bundles, contents };
}
