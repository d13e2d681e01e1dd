/**
 * JSON and YAML builtins: json.marshal(_with_options), json.unmarshal, json.is_valid,
 * yaml.marshal, yaml.unmarshal, yaml.is_valid. Text is read into Values with big integers
 * kept exact; output follows Go's encoders (sorted keys, HTML-safe escapes in JSON).
 * The byte-level encodings (base64, hex, urlquery) live in encoding-bytes.ts.
 */
import { JsonSyntaxError } from "@quintet/gostd/json";
import { BuiltinError, BuiltinTypeError, isStackOverflow } from "../errors.js";
import { MAX_VALUE_DEPTH } from "../value/depth.js";
import { formatValue } from "../value/format.js";
import { indentJsonWith } from "../value/indent-json.js";
import { JSONRangeError, readJSON } from "../value/json-reader.js";
import { RegoObject, stringifyJSON, typeName, type Value } from "../value/value.js";
import { asString, operandError } from "./args.js";
import { encodingBytesBuiltins } from "./encoding-bytes.js";
import { withNamePrefix } from "./error-prefix.js";
import type { BuiltinDef } from "./registry-types.js";
import { readYAML, writeYAML } from "./yaml-codec.js";

/** JSON text as Go's json.Marshal writes it: `<`, `>`, `&`, U+2028/9 escaped. */
export function marshalJSON(v: Value): string {
  return stringifyJSON(v).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

interface MarshalOptions {
  pretty?: boolean;
  prefix?: string;
  indent?: string;
}

/** Reads the options object with OPA's messages (positions inside it are 0-based indexes). */
function marshalOptions(v: Value): MarshalOptions {
  const fn = "json.marshal_with_options";
  if (!(v instanceof RegoObject)) throw operandError(fn, 2, "object", v);
  const opts: MarshalOptions = {};
  v.sortedEntries().forEach(([k, x], idx) => {
    const fail = (message: string) => new BuiltinTypeError(`${fn}: operand 2 ${message}`);
    if (typeof k !== "string") {
      throw fail(
        `failed to stringify key ${formatValue(k)} at index ${idx}: operand ${idx} must be string but got ${typeName(k)}`,
      );
    }
    if (k === "pretty") {
      if (typeof x !== "boolean") throw fail("key pretty failed cast to bool");
      opts.pretty = x;
    } else if (k === "prefix" || k === "indent") {
      if (typeof x !== "string") {
        throw fail(
          `key ${k} failed cast to string: operand ${idx} must be string but got ${typeName(x)}`,
        );
      }
      opts[k] = x;
    } else throw fail(`object contained unknown key ${JSON.stringify(k)}`);
  });
  return opts;
}

function marshalWithOptions(args: Value[]): Value {
  const opts = marshalOptions(args[1] as Value);
  const compact = marshalJSON(args[0] as Value);
  const pretty = opts.pretty ?? (opts.prefix !== undefined || opts.indent !== undefined);
  if (!pretty) return compact;
  return indentJsonWith(compact, opts.prefix ?? "", opts.indent ?? "\t");
}

function unmarshalJSON(args: Value[]): Value {
  const text = asString("json.unmarshal", args[0] as Value, 1);
  try {
    return readJSON(text, { maxDepth: MAX_VALUE_DEPTH });
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new BuiltinError(e.message);
    throw e;
  }
}

function isValidJSON(args: Value[]): Value {
  if (typeof args[0] !== "string") return false;
  try {
    readJSON(args[0]);
    return true;
  } catch (e) {
    // Huge numbers are valid JSON even though they cannot be unmarshalled here.
    return e instanceof JSONRangeError;
  }
}

export const encodingBuiltins: BuiltinDef[] = withNamePrefix([
  {
    name: "json.marshal",
    args: ["any"],
    result: "string",
    impl: (args) => marshalJSON(args[0] as Value),
  },
  {
    name: "json.marshal_with_options",
    args: ["any", "object[string, boolean | string]"],
    result: "string",
    impl: marshalWithOptions,
  },
  { name: "json.unmarshal", args: ["string"], result: "any", impl: unmarshalJSON },
  { name: "json.is_valid", args: ["any"], result: "boolean", impl: isValidJSON },
  {
    name: "yaml.marshal",
    args: ["any"],
    result: "string",
    impl: (args) => writeYAML(args[0] as Value),
  },
  {
    name: "yaml.unmarshal",
    args: ["string"],
    result: "any",
    impl: (args) => {
      const text = asString("yaml.unmarshal", args[0] as Value, 1);
      try {
        return readYAML(text);
      } catch (e) {
        throw e instanceof BuiltinError
          ? new BuiltinError(`error converting YAML to JSON: ${e.message}`)
          : e;
      }
    },
  },
  {
    name: "yaml.is_valid",
    args: ["any"],
    result: "boolean",
    impl: (args) => {
      if (typeof args[0] !== "string") return false;
      try {
        readYAML(args[0]);
        return true;
      } catch (e) {
        // Too deep to read is no answer about validity: the query aborts instead.
        if (isStackOverflow(e)) throw e;
        return false;
      }
    },
  },
  ...encodingBytesBuiltins,
]);
