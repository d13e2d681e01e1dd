/**
 * `rego sign --bundle --signing-key <key> <path>...`: writes `.signatures.json` for bundle
 * directories or `.tar.gz` files, as `opa sign` does: one JWT over the digests of every
 * file (the bundle itself is not changed). File names are those OPA's loaders give: the
 * directory as given joined with the path inside, or the tarball entry's name.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { keyFromFlag } from "../../bundle/keys-config.js";
import { readClaimsFile, signaturesFileText, signBundleFiles } from "../../bundle/sign.js";
import type { BundleFile } from "../../bundle/verify.js";
import { directoryEntries, tarballEntries } from "../../loader/bundle.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { parseFlags, parseOrReportUsage } from "../parse-flags.js";

const USAGE = `Usage: rego sign --bundle --signing-key <key> [flags] <path>...

Writes .signatures.json (one JWT over the SHA-256 digests of every file of the bundle
directories or .tar.gz files given) into the output directory.

Flags:
  -b, --bundle                     paths are bundles (required, as in OPA)
      --signing-key <file|secret>  PEM private key file (RSA, ECDSA), or the HMAC secret
      --signing-alg <alg>          RS256 (default), RS384, RS512, PS256, PS384, PS512,
                                   ES256, ES384, ES512, HS256, HS384, HS512
      --claims-file <file>         JSON object of extra claims for the payload
  -o, --output-file-path <dir>     where to write .signatures.json (default .)
`;

const OPTIONS = {
  bundle: { type: "boolean", short: "b" },
  "signing-key": { type: "string", default: "" },
  "signing-alg": { type: "string", default: "RS256" },
  "claims-file": { type: "string", default: "" },
  "signing-plugin": { type: "string", default: "" },
  "output-file-path": { type: "string", short: "o", default: "." },
} as const;

/** OPA's message when no key is given. */
export const SIGNING_CONFIG_INCOMPLETE =
  "specify the secret (HMAC) or path of the PEM file containing the private key (RSA and ECDSA)";

/** The files of each path, in order: a directory's walk, or a tarball's entries. */
function bundleFiles(paths: readonly string[]): BundleFile[] {
  const files: BundleFile[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (e) {
      throw new Error(`error reading "${path}": ${(e as Error).message}`);
    }
    if (isDir) files.push(...directoryEntries(path));
    else {
      try {
        files.push(...tarballEntries(readFileSync(path)));
      } catch (e) {
        throw new Error(`bundle read failed: archive read failed: ${(e as Error).message}`);
      }
    }
  }
  return files;
}

function problem(values: ReturnType<typeof parse>["values"], paths: string[]): string | undefined {
  if (paths.length === 0) return "specify atleast one path containing policy and/or data files";
  if (values["signing-key"] === "") return SIGNING_CONFIG_INCOMPLETE;
  if (!values.bundle)
    return "enable bundle mode (ie. --bundle) to sign bundle files or directories";
  if (values["signing-plugin"] !== "") return "signing plugins are not supported by rego";
  return undefined;
}

async function runSign(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const bad = problem(values, positionals);
  if (bad) {
    io.stderr.write(`error: ${bad}\n`);
    return 1;
  }
  try {
    const files = bundleFiles(positionals);
    const claimsPath = values["claims-file"];
    const token = signBundleFiles(files, {
      key: keyFromFlag(values["signing-key"]),
      algorithm: values["signing-alg"],
      claims: claimsPath === "" ? undefined : readClaimsFile(claimsPath),
    });
    writeFileSync(join(values["output-file-path"], ".signatures.json"), signaturesFileText(token));
    return 0;
  } catch (e) {
    io.stderr.write(`error: ${(e as Error).message}\n`);
    return 1;
  }
}

function parse(argv: string[]) {
  return parseFlags(argv, OPTIONS);
}

export const signCommand: Command = {
  name: "sign",
  summary: "Generate a bundle signature (.signatures.json)",
  usage: USAGE,
  run: runSign,
};
