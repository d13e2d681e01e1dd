/**
 * `rego build <path>...`: compiles the policies (all or nothing) and writes a gzipped bundle
 * in OPA's layout: `/data.json` (the merged data), each policy file, `/.manifest`.
 * Without `-b` files keep the path they were reached by; with `-b` each path is a bundle
 * (directory or `.tar.gz`), files are named relative to its root, its `.manifest` is carried
 * over (flags override its fields), its signature is verified with `--verification-key`,
 * and `--signing-key` signs the output (`/.signatures.json`).
 */
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { keyFromFlag, verificationConfigFromFlags } from "../../bundle/keys-config.js";
import { readClaimsFile, signaturesFileText, signBundleFiles } from "../../bundle/sign.js";
import { engineFromFiles } from "../../loader/build-engine.js";
import {
  type BundleManifest,
  type BundleSpec,
  bundleEntries,
  writeBundle,
} from "../../loader/bundle.js";
import { BundleLoadError, loadBundlePaths } from "../../loader/load-bundles.js";
import { type LoadedFiles, loadPaths } from "../../loader/load-paths.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { describeFailure } from "../error-report.js";
import { parseFlags, parseOrReportUsage, requirePaths } from "../parse-flags.js";
import { SIGNING_CONFIG_INCOMPLETE } from "./sign.js";

const USAGE = `Usage: rego build [flags] <path>...

Flags:
  -b, --bundle            treat each path as a bundle root (names relative to it)
  -o, --output <file>     where to write the bundle (default bundle.tar.gz)
  -r, --revision <rev>    the manifest's revision
      --ignore <pattern>  skip files and directories with a matching name (repeatable)
      --v0-compatible     parse policies as Rego v0

Signing (needs -b):
      --signing-key <file|secret>        sign the output (PEM private key, or HMAC secret)
      --signing-alg <alg>                RS256 (default); also verifies with it
      --claims-file <file>               JSON object of extra claims
      --verification-key <file|secret>   verify the input bundles' signatures
      --verification-key-id <id>         default "default"
      --scope <scope>                    the scope the signatures must carry
      --exclude-files-verify <glob>      files not checked (repeatable)
`;

const OPTIONS = {
  bundle: { type: "boolean", short: "b" },
  output: { type: "string", short: "o", default: "bundle.tar.gz" },
  revision: { type: "string", short: "r" },
  ignore: { type: "string", multiple: true },
  "v0-compatible": { type: "boolean" },
  "signing-key": { type: "string", default: "" },
  "signing-alg": { type: "string", default: "RS256" },
  "claims-file": { type: "string", default: "" },
  "signing-plugin": { type: "string", default: "" },
  "verification-key": { type: "string", default: "" },
  "verification-key-id": { type: "string", default: "default" },
  scope: { type: "string", default: "" },
  "exclude-files-verify": { type: "string", multiple: true },
} as const;

type Values = ReturnType<typeof parse>["values"];

/** A policy file's path inside the bundle (without -b: as reached from here). */
function bundlePath(file: string): string {
  return relative(".", file).split(sep).join("/");
}

/** OPA's refusals of flag combinations, before anything is read. */
function signingProblem(values: Values): string | undefined {
  const signs = values["signing-key"] !== "";
  if (!signs && (values["signing-plugin"] !== "" || values["claims-file"] !== ""))
    return SIGNING_CONFIG_INCOMPLETE;
  if ((signs || values["verification-key"] !== "") && !values.bundle)
    return "enable bundle mode (ie. --bundle) to verify or sign bundle files or directories";
  if (values["signing-plugin"] !== "") return "signing plugins are not supported by rego";
  return undefined;
}

/** OPA warns when a directory looks like a bundle but -b was not given. */
function warnIgnoredManifests(paths: string[], io: PolicyIo): void {
  for (const path of paths) {
    try {
      if (statSync(path).isDirectory() && existsSync(join(path, ".manifest")))
        io.stderr.write(
          `Warning: .manifest file found in "${path}" but -b flag not specified. Manifest will be ignored.\n`,
        );
    } catch {
      // A missing path is reported by the loader.
    }
  }
}

/** Reads the inputs: files as given, or (with -b) bundles, verified when a key is given. */
function readInputs(
  values: Values,
  paths: string[],
): { files: LoadedFiles; spec: Partial<BundleSpec> } {
  if (!values.bundle) {
    const files = loadPaths(paths, { ignore: values.ignore });
    const modules = files.modules.map((m) => ({
      path: bundlePath(m.file),
      source: m.source,
    }));
    return { files, spec: { modules } };
  }
  const verification =
    values["verification-key"] === ""
      ? undefined
      : verificationConfigFromFlags({
          key: values["verification-key"],
          keyId: values["verification-key-id"],
          algorithm: values["signing-alg"],
          scope: values.scope,
          exclude: values["exclude-files-verify"] ?? [],
        });
  // As in OPA, a signed input is refused without a key (no --skip-verify for build).
  const loaded = loadBundlePaths(paths, { verification });
  const modules = loaded.contents.flatMap((b) =>
    b.files
      .filter((f) => f.path.endsWith(".rego"))
      .map((f) => ({ path: f.path, source: f.content.toString("utf8") })),
  );
  return {
    files: loaded,
    spec: { modules, manifest: carriedManifest(loaded.contents.map((b) => b.manifest)) },
  };
}

/** One input bundle keeps its manifest; several merge their roots (OPA's bundle.Merge). */
function carriedManifest(
  manifests: (BundleManifest | undefined)[],
): (Pick<BundleManifest, "roots" | "metadata" | "rootsGiven"> & { revision?: string }) | undefined {
  if (manifests.length === 1) return manifests[0];
  const given = manifests.filter((m) => m?.rootsGiven);
  if (given.length === 0) return undefined;
  return { roots: manifests.flatMap((m) => m?.roots ?? [""]), rootsGiven: true };
}

async function runBuild(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const bad = signingProblem(values);
  if (bad) {
    io.stderr.write(`error: ${bad}\n`);
    return 1;
  }
  if (!values.bundle) warnIgnoredManifests(positionals, io);
  try {
    const { files, spec } = readInputs(values, positionals);
    engineFromFiles(files, { v0Compatible: values["v0-compatible"] });
    const carried = spec.manifest as { revision?: string } | undefined;
    const bundle: BundleSpec = {
      modules: spec.modules ?? [],
      data: files.data,
      revision: values.revision ?? carried?.revision ?? "",
      manifest: spec.manifest,
    };
    if (values["signing-key"] !== "") bundle.signatures = signatureFor(bundle, values);
    writeFileSync(values.output, writeBundle(bundle));
    return 0;
  } catch (e) {
    if (e instanceof BundleLoadError) {
      io.stderr.write(`error: load error: ${e.message}\n`);
      return 1;
    }
    io.stderr.write(describeFailure(e));
    return 1;
  }
}

/**
 * The output's `.signatures.json`: policies, then `data.json`, then `.manifest`, as OPA lists
 * them; the key ID (header `kid`, claim `keyid`) is `--verification-key-id` unless claims
 * come from a file, as in `opa build`.
 */
function signatureFor(bundle: BundleSpec, values: Values): string {
  const entries = bundleEntries(bundle).map((e) => ({ name: e.name.slice(1), content: e.content }));
  const ordered = [
    ...entries.filter((e) => e.name.endsWith(".rego")),
    ...entries.filter((e) => e.name === "data.json"),
    ...entries.filter((e) => e.name === ".manifest"),
  ];
  const claimsPath = values["claims-file"];
  const token = signBundleFiles(
    ordered,
    {
      key: keyFromFlag(values["signing-key"]),
      algorithm: values["signing-alg"],
      claims: claimsPath === "" ? undefined : readClaimsFile(claimsPath),
    },
    claimsPath === "" ? values["verification-key-id"] : "",
  );
  return signaturesFileText(token);
}

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  requirePaths(parsed.positionals);
  return parsed;
}

export const buildCommand: Command = {
  name: "build",
  summary: "Build a bundle (.tar.gz) from policies and data",
  usage: USAGE,
  run: runBuild,
};
