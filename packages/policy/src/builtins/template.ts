/**
 * strings.render_template: Go's text/template (@quintet/gostd) over the variables object as
 * OPA hands it to Go: JSON decoded with UseNumber, so numbers are json.Number (a string type
 * printed as written), sets are arrays and objects are map[string]interface {}. A missing
 * key prints `<undefined>`; errors read like Go's, naming the template "template".
 */
import { GoNamed, type GoType } from "@quintet/gostd/fmt";
import {
  executeTemplate,
  parseTemplate,
  TemplateError,
  type TemplateOptions,
} from "@quintet/gostd/template";
import { BuiltinError } from "../errors.js";
import { formatNumber, isNumber } from "../value/number.js";
import { RegoObject, RegoSet, toJSON, type Value } from "../value/value.js";
import { asObject, asString } from "./args.js";
import { withNamePrefix } from "./error-prefix.js";
import type { BuiltinDef } from "./registry-types.js";

/** encoding/json's Number: a named string type. */
const JSON_NUMBER: GoType = { name: "json.Number" };

const OPA_OPTIONS: TemplateOptions = {
  name: "template",
  noValue: "<undefined>",
  interfaceValues: true,
};

/** A map key as JSON gives it to Go: strings as they are, other keys as their JSON text. */
function keyText(k: Value): string {
  if (typeof k === "string") return k;
  return isNumber(k) ? formatNumber(k) : JSON.stringify(toJSON(k));
}

/** The Go value that decoding the Rego value's JSON (with UseNumber) gives. */
function goValue(v: Value): unknown {
  if (isNumber(v)) return new GoNamed(JSON_NUMBER, formatNumber(v));
  if (Array.isArray(v)) return v.map(goValue);
  if (v instanceof RegoSet) return v.sorted().map(goValue);
  if (v instanceof RegoObject) {
    const map: Record<string, unknown> = Object.create(null);
    for (const [k, x] of v.sortedEntries()) map[keyText(k)] = goValue(x);
    return map;
  }
  return v;
}

function renderTemplate(args: Value[]): Value {
  const source = asString("strings.render_template", args[0] as Value, 1);
  const data = asObject("strings.render_template", args[1] as Value, 2);
  try {
    return executeTemplate(parseTemplate(source, OPA_OPTIONS), goValue(data), OPA_OPTIONS);
  } catch (e) {
    if (e instanceof TemplateError) throw new BuiltinError(e.message);
    throw e;
  }
}

export const templateBuiltins: BuiltinDef[] = withNamePrefix([
  {
    name: "strings.render_template",
    args: ["string", "object[string, any]"],
    result: "string",
    impl: renderTemplate,
  },
]);
