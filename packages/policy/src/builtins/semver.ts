/**
 * semver.is_valid and semver.compare. A version is [v]MAJOR.MINOR.PATCH with an optional
 * `-pre.release` and `+build` (identifiers of [0-9A-Za-z-]); precedence follows SemVer 2.0:
 * numeric parts, then a release outranks its pre-releases, then identifier by identifier.
 */
import { BuiltinError } from "../errors.js";
import type { Value } from "../value/value.js";
import { asString } from "./args.js";
import { withNamePrefix } from "./error-prefix.js";
import type { BuiltinDef } from "./registry-types.js";

interface Version {
  core: [bigint, bigint, bigint];
  prerelease: string[];
}

const IDENTIFIERS = /^[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*$/;
const NUMERIC_PART = /^[+-]?[0-9]+$/;
const INT64_MAX = 2n ** 63n - 1n;

/** Parses a version, or undefined when it is not valid. */
export function parseSemver(text: string): Version | undefined {
  // A leading "v" is accepted, as OPA's parser trims it.
  let rest = text.startsWith("v") ? text.slice(1) : text;
  const plus = rest.indexOf("+");
  const build = plus >= 0 ? rest.slice(plus + 1) : "";
  if (plus >= 0) rest = rest.slice(0, plus);
  const dash = rest.indexOf("-");
  const pre = dash >= 0 ? rest.slice(dash + 1) : "";
  if (dash >= 0) rest = rest.slice(0, dash);
  if ((pre !== "" && !IDENTIFIERS.test(pre)) || (build !== "" && !IDENTIFIERS.test(build)))
    return undefined;
  const parts = rest.split(".");
  if (parts.length !== 3 || !parts.every((p) => NUMERIC_PART.test(p))) return undefined;
  const core = parts.map((p) => BigInt(p)) as [bigint, bigint, bigint];
  if (core.some((n) => n > INT64_MAX || n < -INT64_MAX - 1n)) return undefined;
  return { core, prerelease: pre === "" ? [] : pre.split(".") };
}

function compareIdentifiers(a: string, b: string): number {
  const aNum = /^[0-9]+$/.test(a);
  const bNum = /^[0-9]+$/.test(b);
  if (aNum && bNum) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (aNum !== bNum) return aNum ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SemVer precedence: -1, 0 or 1. Build metadata is ignored. */
export function compareSemver(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    const x = a.core[i] as bigint;
    const y = b.core[i] as bigint;
    if (x !== y) return x < y ? -1 : 1;
  }
  if (a.prerelease.length === 0 || b.prerelease.length === 0) {
    return Math.sign(b.prerelease.length - a.prerelease.length);
  }
  const n = Math.min(a.prerelease.length, b.prerelease.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifiers(a.prerelease[i] as string, b.prerelease[i] as string);
    if (c !== 0) return c;
  }
  return Math.sign(a.prerelease.length - b.prerelease.length);
}

function versionOperand(v: Value, pos: number): Version {
  const text = asString("semver.compare", v, pos);
  const parsed = parseSemver(text);
  if (!parsed) {
    throw new BuiltinError(`operand ${pos}: string ${JSON.stringify(text)} is not a valid SemVer`);
  }
  return parsed;
}

export const semverBuiltins: BuiltinDef[] = withNamePrefix([
  {
    name: "semver.is_valid",
    args: ["any"],
    result: "boolean",
    impl: (args) => typeof args[0] === "string" && parseSemver(args[0]) !== undefined,
  },
  {
    name: "semver.compare",
    args: ["string", "string"],
    result: "number",
    impl: (args) =>
      compareSemver(versionOperand(args[0] as Value, 1), versionOperand(args[1] as Value, 2)),
  },
]);
