/**
 * YAML for yaml.marshal and yaml.unmarshal, as OPA's Go stack (sigs.k8s.io/yaml over yaml.v2)
 * reads and writes it: YAML 1.1 scalars without timestamps or base-60 numbers when reading,
 * sorted keys, unindented sequences and libyaml's quoting choices when writing.
 */
import YAML from "yaml";
import { BuiltinError } from "../errors.js";
import { valueDepthExceeds, yamlNestingExceeds } from "../value/depth.js";
import { normalizeNumber } from "../value/number.js";
import { RegoObject, toJSON, type Value } from "../value/value.js";

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

/**
 * Deepest nesting handed to the YAML parser, which recurses per level: near the end of the
 * stack it fails, and can even abort the process (V8's regex compiler runs out of room).
 * Deeper text is refused, as Go's decoder refuses text past its own depth limit.
 */
export const MAX_YAML_DEPTH = 256;

/** Parses the first YAML document into a Value (later documents are ignored, as in Go). */
export function readYAML(text: string): Value {
  if (yamlNestingExceeds(text, MAX_YAML_DEPTH)) {
    throw new BuiltinError(`yaml: exceeded max depth of ${MAX_YAML_DEPTH}`);
  }
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

/** A scalar test of the YAML 1.1 schema, as yaml.v2's resolver applies it when writing. */
const nonStringTests: RegExp[] = YAML.parseDocument("", { schema: "yaml-1.1" }).schema.tags.flatMap(
  (t) => (typeof t === "object" && t.test && !t.tag.endsWith(":str") ? [t.test] : []),
);

/** Characters libyaml cannot write in plain or single-quoted style. */
const NON_PRINTABLE =
  /[^\n\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]/u;

/**
 * Whether Go's encoder writes the string double-quoted: when it would read back as another
 * type (bool, number, null, timestamp...) or holds characters only escapes can carry.
 */
function needsDoubleQuotes(s: string): boolean {
  return s === "" || s === "<<" || NON_PRINTABLE.test(s) || nonStringTests.some((re) => re.test(s));
}

/** YAML text of a value; strings libyaml cannot write plain get single quotes, like yaml.v2. */
export function writeYAML(v: Value): string {
  // The YAML writer recurses per level too: the same bound as for reading.
  if (valueDepthExceeds(v, MAX_YAML_DEPTH)) {
    throw new BuiltinError(`yaml: exceeded max depth of ${MAX_YAML_DEPTH}`);
  }
  const data = toJSON(v);
  if (data === null) return "null\n";
  const doc = new YAML.Document(data, { schema: "yaml-1.1" });
  YAML.visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && needsDoubleQuotes(node.value))
        node.type = "QUOTE_DOUBLE";
    },
  });
  return doc.toString({ indentSeq: false, singleQuote: true });
}
