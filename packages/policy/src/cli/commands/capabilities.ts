/**
 * `rego capabilities`: what this engine supports, in the shape of `opa capabilities`.
 * Without flags it lists the known versions (this one); `--current` prints the JSON
 * document: every builtin with its declaration (and `deprecated: true` where OPA marks it so),
 * the future keywords and the features.
 */
import { parseArgs } from "node:util";
import { allBuiltins } from "../../builtins/registry.js";
import { deprecatedBuiltins } from "../../compile/strict/deprecated.js";
import { packageVersion } from "../../version.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { asUsage } from "../parse-flags.js";
import { typeJson } from "../type-json.js";

const USAGE = `Usage: rego capabilities [flags]

Flags:
      --current          print the capabilities of this engine as JSON
      --version <v>      print the capabilities of version <v> (only this one is known)
`;

const OPTIONS = {
  current: { type: "boolean" },
  version: { type: "string" },
} as const;

/** The capabilities document of this engine. */
export function capabilitiesDocument(): unknown {
  const builtins = [...allBuiltins()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((b) => ({
      name: b.name,
      decl: { args: b.args.map(typeJson), result: typeJson(b.result), type: "function" },
      // OPA's Builtin struct serialises `deprecated` before `nondeterministic`.
      ...(deprecatedBuiltins.has(b.name) ? { deprecated: true } : {}),
      ...(b.nondeterministic ? { nondeterministic: true } : {}),
    }));
  return {
    builtins,
    future_keywords: ["contains", "every", "if", "in"],
    wasm_abi_versions: [],
    features: ["rego_v1", "rule_head_ref_string_prefixes", "rule_head_refs"],
  };
}

async function runCapabilities(argv: string[], io: PolicyIo): Promise<number> {
  let values: { current?: boolean; version?: string };
  try {
    const parsed = asUsage(() => parseArgs({ args: argv, options: OPTIONS, strict: true }));
    values = parsed.values;
  } catch (e) {
    io.stderr.write(`error: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const own = `v${packageVersion()}`;
  if (values.version !== undefined && values.version !== own && values.version !== own.slice(1)) {
    io.stderr.write(`error: unknown version ${values.version} (known: ${own})\n`);
    return 1;
  }
  if (!values.current && values.version === undefined) {
    io.stdout.write(`${own}\n`);
    return 0;
  }
  io.stdout.write(`${JSON.stringify(capabilitiesDocument(), null, 2)}\n`);
  return 0;
}

export const capabilitiesCommand: Command = {
  name: "capabilities",
  summary: "Print the builtins and features this engine supports",
  usage: USAGE,
  run: runCapabilities,
};
