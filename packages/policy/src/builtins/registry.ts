/**
 * The single table of builtins: every family file contributes its list, and the evaluator
 * and type checker look names up here.
 */
import { aggregatesBuiltins } from "./aggregates.js";
import { arithmeticBuiltins } from "./arithmetic.js";
import { arraysBuiltins } from "./arrays.js";
import { bitsBuiltins } from "./bits.js";
import { castsBuiltins } from "./casts.js";
import { comparisonBuiltins } from "./comparison.js";
import { cryptoBuiltins } from "./crypto/index.js";
import { encodingBuiltins } from "./encoding.js";
import { globBuiltins } from "./glob.js";
import { graphBuiltins } from "./graph.js";
import { graphqlBuiltins } from "./graphql/index.js";
import { httpSendBuiltin } from "./http-send.js";
import { jsonOpsBuiltins } from "./json-ops.js";
import { jsonSchemaBuiltins } from "./json-schema/index.js";
import { jwtBuiltins } from "./jwt/index.js";
import { netBuiltins } from "./net/index.js";
import { objectsBuiltins } from "./objects.js";
import { opaRuntimeBuiltins } from "./opa-runtime.js";
import { printBuiltins } from "./print.js";
import { providersAwsBuiltins } from "./providers-aws.js";
import { regexBuiltins } from "./regex.js";
import type { BuiltinDef } from "./registry-types.js";
import { regoBuiltins } from "./rego.js";
import { semverBuiltins } from "./semver.js";
import { setsBuiltins } from "./sets.js";
import { sprintfBuiltins } from "./sprintf.js";
import { stringsBuiltins } from "./strings.js";
import { templateBuiltins } from "./template.js";
import { timeBuiltins } from "./time/index.js";
import { traceBuiltins } from "./trace.js";
import { typesBuiltins } from "./types.js";
import { unitsBuiltins } from "./units.js";
import { uuidBuiltins } from "./uuid.js";

export type { BuiltinContext, BuiltinDef } from "./registry-types.js";

const families: BuiltinDef[][] = [
  aggregatesBuiltins,
  arithmeticBuiltins,
  comparisonBuiltins,
  printBuiltins,
  traceBuiltins,
  regoBuiltins,
  opaRuntimeBuiltins,
  [httpSendBuiltin],
  bitsBuiltins,
  stringsBuiltins,
  sprintfBuiltins,
  regexBuiltins,
  globBuiltins,
  arraysBuiltins,
  setsBuiltins,
  objectsBuiltins,
  jsonOpsBuiltins,
  typesBuiltins,
  castsBuiltins,
  encodingBuiltins,
  unitsBuiltins,
  semverBuiltins,
  timeBuiltins,
  uuidBuiltins,
  netBuiltins,
  graphBuiltins,
  cryptoBuiltins,
  jwtBuiltins,
  graphqlBuiltins,
  providersAwsBuiltins,
  jsonSchemaBuiltins,
  templateBuiltins,
];

const table = new Map<string, BuiltinDef>();
for (const family of families) {
  for (const def of family) {
    if (table.has(def.name)) throw new Error(`builtin ${def.name} is registered twice`);
    table.set(def.name, def);
  }
}

/** The builtin called `name` (dotted, e.g. `strings.replace_n`), if any. */
export function lookupBuiltin(name: string): BuiltinDef | undefined {
  return table.get(name);
}

/** Every registered builtin, for `capabilities` and the type checker. */
export function allBuiltins(): Iterable<BuiltinDef> {
  return table.values();
}
