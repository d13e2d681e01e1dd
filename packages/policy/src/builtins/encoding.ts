/**
 * JSON and YAML builtins: json.marshal(_with_options), json.unmarshal, json.is_valid,
 * yaml.marshal, yaml.unmarshal, yaml.is_valid. Text is read into Values with big integers
 * kept exact; output follows Go's encoders (sorted keys, HTML-safe escapes in JSON).
 * The byte-level encodings (base64, hex, urlquery) live in encoding-bytes.ts.
 */
import YAML from "yaml";
import { BuiltinError, BuiltinTypeError } from "../errors.js";
import { formatValue } from "../value/format.js";
import { normalizeNumber } from "../value/number.js";
import { RegoObject, stringifyJSON, toJSON, typeName, type Value } from "../value/value.js";
import { asString, operandError } from "./args.js";
import { encodingBytesBuiltins } from "./encoding-bytes.js";
import { withNamePrefix } from "./error-prefix.js";
import { JSONRangeError, JSONSyntaxError, readJSON } from "./json-reader.js";
import type { BuiltinDef } from "./registry-types.js";

/** JSON text as Go's json.Marshal writes it: `<`, `>`, `&`, U+2028/9 escaped. */
export function marshalJSON(v: Value): string {
  return stringifyJSON(v).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * Go's json.Indent applied to compact JSON, with OPA's leading prefix: every element on its
 * own line starting with `prefix` and one `indent` per nesting level; empty containers stay `[]`/`{}`.
 */
function indentJSON(compact: string, prefix: string, indent: string): string {
  let out = prefix;
  let depth = 0;
  let inString = false;
  const newline = (): string => `\n${prefix}${indent.repeat(depth)}`;
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i] as string;
    if (inString) {
      out += c;
      if (c === "\\") out += compact[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "[" || c === "{") {
      const close = c === "[" ? "]" : "}";
      if (compact[i + 1] === close) {
        out += c + close;
        i++;
        continue;
      }
      depth++;
      out += c + newline();
    } else if (c === "]" || c === "}") {
      depth--;
      out += newline() + c;
    } else if (c === ",") out += c + newline();
    else if (c === ":") out += ": ";
    else out += c;
  }
  return out;
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
  return indentJSON(compact, opts.prefix ?? "", opts.indent ?? "\t");
}

function unmarshalJSON(args: Value[]): Value {
  const text = asString("json.unmarshal", args[0] as Value, 1);
  try {
    return readJSON(text);
  } catch (e) {
    if (e instanceof JSONSyntaxError) throw new BuiltinError(e.message);
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

/** JSON object keys from YAML keys: scalars become their text, collections are refused. */
function mapKey(k: unknown): string {
  if (typeof k === "string") return k;
  if (k === null || k === undefined) return "null";
  if (typeof k === "object")
    throw new BuiltinError("yaml: invalid map key: a collection cannot be a JSON object key");
  return String(k);
}

/** A Value from the yaml package's JS output (bigints for integers). */
function fromYAML(x: unknown): Value {
  if (x === null || x === undefined) return null;
  if (typeof x === "boolean" || typeof x === "string") return x;
  if (typeof x === "bigint") return normalizeNumber(x);
  if (typeof x === "number") {
    if (!Number.isFinite(x)) throw new BuiltinError(`yaml: cannot represent ${x} as a number`);
    return x;
  }
  if (Array.isArray(x)) return x.map(fromYAML);
  if (x instanceof Map) {
    const o = new RegoObject();
    for (const [k, v] of x) o.set(mapKey(k), fromYAML(v));
    return o;
  }
  if (typeof x === "object") {
    const o = new RegoObject();
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) o.set(k, fromYAML(v));
    return o;
  }
  throw new BuiltinError(`yaml: unsupported value of type ${typeof x}`);
}

/** Go-yaml's wording for the common parse failures, with the line number. */
function yamlErrorMessage(error: YAML.YAMLError): string {
  const line = error.linePos?.[0].line ?? 1;
  const first = error.message.split(" at line ")[0] ?? error.message;
  if (/Flow sequence/.test(first)) return `yaml: line ${line}: did not find expected ',' or ']'`;
  if (/Flow map/.test(first)) return `yaml: line ${line}: did not find expected ',' or '}'`;
  return `yaml: line ${line}: ${first}`;
}

/**
 * YAML 1.1 scalars as Go's yaml.v2 resolves them when decoding into untyped values:
 * timestamps stay strings and there are no sexagesimal (base 60) numbers.
 */
const yamlTags = (tags: YAML.Tags): YAML.Tags =>
  tags.filter((t) =>
    typeof t === "string"
      ? !["timestamp", "intTime", "floatTime"].includes(t)
      : !t.tag.endsWith(":timestamp") && t.format !== "TIME",
  );

/** Parses the first YAML document into a Value (later documents are ignored, as in Go). */
export function readYAML(text: string): Value {
  const docs = YAML.parseAllDocuments(text, {
    schema: "yaml-1.1",
    customTags: yamlTags,
    intAsBigInt: true,
    uniqueKeys: false,
    logLevel: "error",
  });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (!doc) return null;
  const error = doc.errors[0];
  if (error) throw new BuiltinError(yamlErrorMessage(error));
  let js: unknown;
  try {
    js = doc.toJS({ mapAsMap: true, maxAliasCount: 100 });
  } catch (e) {
    // Unknown anchors and alias explosions surface only while resolving.
    const unknown = /Unresolved alias[^:]*: (.*)$/.exec((e as Error).message);
    throw new BuiltinError(
      unknown ? `yaml: unknown anchor '${unknown[1]}' referenced` : `yaml: ${(e as Error).message}`,
    );
  }
  return fromYAML(js);
}

function marshalYAML(args: Value[]): Value {
  const data = toJSON(args[0] as Value);
  if (data === null) return "null\n";
  return YAML.stringify(data, { schema: "yaml-1.1", indentSeq: false });
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
  { name: "yaml.marshal", args: ["any"], result: "string", impl: marshalYAML },
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
      } catch {
        return false;
      }
    },
  },
  ...encodingBytesBuiltins,
]);
