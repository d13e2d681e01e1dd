/**
 * `rego run`'s bundle flags, as OPA's: `-b/--bundle` (paths are bundle directories or
 * `.tar.gz` files) and the signature verification flags that go with it. Kept apart from
 * run.ts so the command only spreads the table and calls the loader.
 */
import { verificationConfigFromFlags } from "../bundle/keys-config.js";
import type { PolicyEngine } from "../engine.js";
import { engineFromFiles } from "../loader/build-engine.js";
import {
  BundleLoadError,
  type BundleLoadOptions,
  loadBundlePaths,
} from "../loader/load-bundles.js";
import type { LoadedFiles } from "../loader/load-paths.js";
import type { PolicyIo } from "./cli-io.js";
import { describeFailure, isExpectedFailure } from "./error-report.js";
import { UsageError } from "./parse-flags.js";
import type { ReloadResult } from "./watch.js";

/** The flags, in node:util parseArgs form. */
export const BUNDLE_FLAG_OPTIONS = {
  bundle: { type: "boolean", short: "b" },
  "verification-key": { type: "string" },
  "verification-key-id": { type: "string" },
  "signing-alg": { type: "string" },
  scope: { type: "string" },
  "skip-verify": { type: "boolean" },
  "exclude-files-verify": { type: "string", multiple: true },
} as const;

/** Their lines for the usage text. */
export const BUNDLE_FLAG_USAGE = `  -b, --bundle                   paths are bundles (directories or .tar.gz), verified
                                 against their .signatures.json
      --verification-key <file|secret>  PEM public key file, or the HMAC secret
      --verification-key-id <id>        key ID (default "default")
      --signing-alg <alg>               algorithm of the key (default RS256)
      --scope <scope>                   scope the signature must carry
      --skip-verify                     do not verify bundle signatures
      --exclude-files-verify <glob>     files not checked (repeatable)
`;

/** The values parseArgs gives for the table above. */
export interface BundleFlagValues {
  bundle?: boolean;
  "verification-key"?: string;
  "verification-key-id"?: string;
  "signing-alg"?: string;
  scope?: string;
  "skip-verify"?: boolean;
  "exclude-files-verify"?: string[];
}

/** Bundle mode's loading options, or undefined without `-b`; throws UsageError as OPA refuses. */
export function bundleLoadOptions(values: BundleFlagValues): BundleLoadOptions | undefined {
  const key = values["verification-key"];
  if (!values.bundle) {
    if (key !== undefined)
      throw new UsageError(
        "enable bundle mode (ie. --bundle) to verify bundle files or directories",
      );
    return undefined;
  }
  const verification =
    key === undefined || key === ""
      ? undefined
      : verificationConfigFromFlags({
          key,
          keyId: values["verification-key-id"] ?? "default",
          algorithm: values["signing-alg"] ?? "RS256",
          scope: values.scope ?? "",
          exclude: values["exclude-files-verify"] ?? [],
        });
  return { verification, skipVerify: values["skip-verify"] ?? false };
}

/** Loads bundles and compiles them; throws BundleLoadError or the engine's errors. */
export function buildBundleEngine(
  paths: readonly string[],
  options: BundleLoadOptions,
  v0Compatible: boolean,
): { engine: PolicyEngine; files: LoadedFiles } {
  const files = loadBundlePaths(paths, options);
  return { engine: engineFromFiles(files, { v0Compatible }), files };
}

/** A `--watch` reload in bundle mode: the new engine, or why the old one is kept. */
export function reloadBundleEngine(
  paths: readonly string[],
  options: BundleLoadOptions,
  v0Compatible: boolean,
): ReloadResult {
  try {
    return { ok: true, loaded: buildBundleEngine(paths, options, v0Compatible) };
  } catch (e) {
    if (e instanceof BundleLoadError) return { ok: false, error: `load error: ${e.message}` };
    if (!isExpectedFailure(e)) throw e;
    return { ok: false, error: describeFailure(e, true).trimEnd() };
  }
}

/** Reads and verifies the bundles, reporting the first failure as OPA does; true when all pass. */
export function bundlesVerified(
  paths: readonly string[],
  options: BundleLoadOptions,
  io: Pick<PolicyIo, "stderr">,
): boolean {
  try {
    loadBundlePaths(paths, options);
    return true;
  } catch (e) {
    if (!(e instanceof BundleLoadError)) throw e;
    io.stderr.write(`error: load error: ${e.message}\n`);
    return false;
  }
}
