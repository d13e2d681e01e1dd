/**
 * Validates a document against a JSON Schema (drafts 4, 6, 7) and reports failures the way
 * gojsonschema does for OPA: an error type, the field path (`(root)` stripped), and the
 * library's English description.
 */
import { formatNumber, isInteger, isNumber, type RegoNumber, toFloat } from "../../value/number.js";
import { equal, RegoObject, stringifyJSON, type Value } from "../../value/value.js";
import { SchemaError } from "./schema-check.js";

export interface SchemaFailure {
  type: string;
  field: string;
  desc: string;
}

type Path = string[];

function fieldOf(path: Path): string {
  return path.length === 0 ? "(root)" : path.join(".");
}

function jsonType(v: Value): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return "boolean";
  if (isNumber(v)) return isInteger(v) ? "integer" : "number";
  if (typeof v === "string") return "string";
  if (Array.isArray(v)) return "array";
  return "object";
}

const num = (n: RegoNumber) => formatNumber(n);

export class Validator {
  constructor(private readonly root: Value) {}

  /** Failures of `doc` against the root schema, empty when valid. */
  validate(doc: Value): SchemaFailure[] {
    const out: SchemaFailure[] = [];
    this.check(this.root, doc, [], out);
    return out;
  }

  private fail(out: SchemaFailure[], type: string, path: Path, desc: string): void {
    out.push({ type, field: fieldOf(path), desc });
  }

  private resolve(ref: string): Value {
    if (!ref.startsWith("#")) throw new SchemaError(`unsupported remote reference ${ref}`);
    let node: Value = this.root;
    for (const raw of ref
      .slice(1)
      .split("/")
      .filter((p) => p !== "")) {
      const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      if (node instanceof RegoObject) node = node.get(part) as Value;
      else if (Array.isArray(node)) node = node[Number(part)] as Value;
      else node = undefined as unknown as Value;
      if (node === undefined) throw new SchemaError(`Reference ${ref} cannot be resolved`);
    }
    return node;
  }

  private valid(schema: Value, doc: Value, path: Path): SchemaFailure[] {
    const out: SchemaFailure[] = [];
    this.check(schema, doc, path, out);
    return out;
  }

  private check(schema: Value, doc: Value, path: Path, out: SchemaFailure[]): void {
    if (schema === true) return;
    if (schema === false) {
      this.fail(out, "false", path, "False always fails validation");
      return;
    }
    if (!(schema instanceof RegoObject)) return;
    const ref = schema.get("$ref");
    if (typeof ref === "string") {
      this.check(this.resolve(ref), doc, path, out);
      return;
    }
    const type = schema.get("type");
    if (type !== undefined) {
      const types = (Array.isArray(type) ? type : [type]) as string[];
      const actual = jsonType(doc);
      if (!types.some((t) => t === actual || (t === "number" && actual === "integer"))) {
        const expected = types.length === 1 ? (types[0] as string) : `[${types.join(",")}]`;
        this.fail(
          out,
          "invalid_type",
          path,
          `Invalid type. Expected: ${expected}, given: ${actual}`,
        );
        return;
      }
    }
    this.checkCombinators(schema, doc, path, out);
    this.checkCommon(schema, doc, path, out);
    if (Array.isArray(doc)) this.checkArray(schema, doc, path, out);
    else if (doc instanceof RegoObject) this.checkObject(schema, doc, path, out);
    else if (typeof doc === "string") this.checkString(schema, doc, path, out);
    else if (isNumber(doc)) this.checkNumber(schema, doc, path, out);
  }

  private checkCombinators(schema: RegoObject, doc: Value, path: Path, out: SchemaFailure[]): void {
    const anyOf = schema.get("anyOf");
    if (Array.isArray(anyOf)) {
      const results = anyOf.map((s) => this.valid(s, doc, path));
      if (!results.some((r) => r.length === 0)) {
        this.fail(out, "number_any_of", path, "Must validate at least one schema (anyOf)");
        out.push(...best(results));
      }
    }
    const oneOf = schema.get("oneOf");
    if (Array.isArray(oneOf)) {
      const results = oneOf.map((s) => this.valid(s, doc, path));
      const passed = results.filter((r) => r.length === 0).length;
      if (passed !== 1) {
        this.fail(out, "number_one_of", path, "Must validate one and only one schema (oneOf)");
        if (passed === 0) out.push(...best(results));
      }
    }
    const allOf = schema.get("allOf");
    if (Array.isArray(allOf)) {
      const failures = allOf.flatMap((s) => this.valid(s, doc, path));
      if (failures.length > 0) {
        out.push(...failures);
        this.fail(out, "number_all_of", path, "Must validate all the schemas (allOf)");
      }
    }
    const not = schema.get("not");
    if (not !== undefined && this.valid(not, doc, path).length === 0) {
      this.fail(out, "number_not", path, "Must not validate the schema (not)");
    }
    const cond = schema.get("if");
    if (cond !== undefined) {
      const branch = this.valid(cond, doc, path).length === 0 ? "then" : "else";
      const sub = schema.get(branch);
      if (sub !== undefined) {
        const failures = this.valid(sub, doc, path);
        if (failures.length > 0) {
          out.push(...failures);
          this.fail(
            out,
            `condition_${branch}`,
            path,
            `Must validate "${branch}" as "if" was ${branch === "then" ? "valid" : "not valid"}`,
          );
        }
      }
    }
  }

  private checkCommon(schema: RegoObject, doc: Value, path: Path, out: SchemaFailure[]): void {
    const field = fieldOf(path);
    const c = schema.get("const");
    if (c !== undefined && !equal(c, doc))
      this.fail(out, "const", path, `${field} does not match: ${stringifyJSON(c)}`);
    const en = schema.get("enum");
    if (Array.isArray(en) && !en.some((e) => equal(e, doc))) {
      const allowed = en.map((e) => stringifyJSON(e)).join(", ");
      this.fail(out, "enum", path, `${field} must be one of the following: ${allowed}`);
    }
  }

  private checkArray(schema: RegoObject, doc: Value[], path: Path, out: SchemaFailure[]): void {
    const min = schema.get("minItems");
    if (isNumber(min) && doc.length < toFloat(min))
      this.fail(out, "array_min_items", path, `Array must have at least ${num(min)} items`);
    const max = schema.get("maxItems");
    if (isNumber(max) && doc.length > toFloat(max))
      this.fail(out, "array_max_items", path, `Array must have at most ${num(max)} items`);
    if (schema.get("uniqueItems") === true) {
      for (let i = 0; i < doc.length; i++) {
        const j = doc.findIndex((x, k) => k > i && equal(x, doc[i] as Value));
        if (j > 0) {
          this.fail(out, "unique", path, `array items[${i},${j}] must be unique`);
          break;
        }
      }
    }
    const contains = schema.get("contains");
    if (
      contains !== undefined &&
      !doc.some((x, i) => this.valid(contains, x, [...path, String(i)]).length === 0)
    ) {
      this.fail(out, "contains", path, "At least one of the items must match");
    }
    const items = schema.get("items");
    if (Array.isArray(items)) {
      doc.forEach((x, i) => {
        const sub = i < items.length ? items[i] : schema.get("additionalItems");
        if (sub === false)
          this.fail(out, "array_no_additional_items", path, "No additional items allowed on array");
        else if (sub !== undefined) this.check(sub as Value, x, [...path, String(i)], out);
      });
    } else if (items !== undefined) {
      doc.forEach((x, i) => {
        this.check(items, x, [...path, String(i)], out);
      });
    }
  }

  private checkObject(schema: RegoObject, doc: RegoObject, path: Path, out: SchemaFailure[]): void {
    const min = schema.get("minProperties");
    if (isNumber(min) && doc.size < toFloat(min)) {
      this.fail(out, "array_min_properties", path, `Must have at least ${num(min)} properties`);
    }
    const max = schema.get("maxProperties");
    if (isNumber(max) && doc.size > toFloat(max)) {
      this.fail(out, "array_max_properties", path, `Must have at most ${num(max)} properties`);
    }
    const required = schema.get("required");
    for (const r of Array.isArray(required) ? required : []) {
      if (typeof r === "string" && !doc.has(r))
        this.fail(out, "required", path, `${r} is required`);
    }
    this.checkProperties(schema, doc, path, out);
    const names = schema.get("propertyNames");
    for (const k of names === undefined ? [] : doc.keys()) {
      if (this.valid(names as Value, k, path).length > 0) {
        this.fail(
          out,
          "invalid_property_name",
          path,
          `Property name of "${String(k)}" does not match`,
        );
      }
    }
    this.checkDependencies(schema, doc, path, out);
  }

  /** properties, patternProperties and additionalProperties, member by member. */
  private checkProperties(
    schema: RegoObject,
    doc: RegoObject,
    path: Path,
    out: SchemaFailure[],
  ): void {
    const props = schema.get("properties");
    const patterns = schema.get("patternProperties");
    const additional = schema.get("additionalProperties");
    for (const [k, v] of doc.sortedEntries()) {
      const key = typeof k === "string" ? k : stringifyJSON(k);
      const at = [...path, key];
      let matched = false;
      const sub = props instanceof RegoObject ? props.get(key) : undefined;
      if (sub !== undefined) {
        matched = true;
        this.check(sub, v, at, out);
      }
      for (const [pattern, psub] of patterns instanceof RegoObject ? patterns.entries() : []) {
        if (!new RegExp(pattern as string, "u").test(key)) continue;
        matched = true;
        this.check(psub, v, at, out);
      }
      if (matched || additional === undefined || additional === true) continue;
      if (additional === false) {
        this.fail(
          out,
          "additional_property_not_allowed",
          path,
          `Additional property ${key} is not allowed`,
        );
      } else this.check(additional, v, at, out);
    }
  }

  /** Property dependencies (a list of names) and schema dependencies. */
  private checkDependencies(
    schema: RegoObject,
    doc: RegoObject,
    path: Path,
    out: SchemaFailure[],
  ): void {
    const deps = schema.get("dependencies");
    if (!(deps instanceof RegoObject)) return;
    for (const [k, dep] of deps.entries()) {
      if (!doc.has(k)) continue;
      if (!Array.isArray(dep)) {
        this.check(dep, doc, path, out);
        continue;
      }
      for (const d of dep) {
        if (!doc.has(d))
          this.fail(out, "missing_dependency", path, `Has a dependency on ${String(d)}`);
      }
    }
  }

  private checkString(schema: RegoObject, doc: string, path: Path, out: SchemaFailure[]): void {
    const length = [...doc].length;
    const min = schema.get("minLength");
    if (isNumber(min) && length < toFloat(min))
      this.fail(
        out,
        "string_gte",
        path,
        `String length must be greater than or equal to ${num(min)}`,
      );
    const max = schema.get("maxLength");
    if (isNumber(max) && length > toFloat(max))
      this.fail(out, "string_lte", path, `String length must be less than or equal to ${num(max)}`);
    const pattern = schema.get("pattern");
    if (typeof pattern === "string" && !new RegExp(pattern, "u").test(doc)) {
      this.fail(out, "pattern", path, `Does not match pattern '${pattern}'`);
    }
    const format = schema.get("format");
    if (typeof format === "string" && !formatOk(format, doc)) {
      this.fail(out, "format", path, `Does not match format '${format}'`);
    }
  }

  private checkNumber(schema: RegoObject, doc: RegoNumber, path: Path, out: SchemaFailure[]): void {
    const x = toFloat(doc);
    const multipleOf = schema.get("multipleOf");
    if (isNumber(multipleOf)) {
      const q = x / toFloat(multipleOf);
      if (Math.abs(q - Math.round(q)) > 1e-9)
        this.fail(out, "multiple_of", path, `Must be a multiple of ${num(multipleOf)}`);
    }
    const bound = (
      key: string,
      exclusiveKey: string,
      strictType: string,
      type: string,
      strictDesc: string,
      desc: string,
    ) => {
      const limit = schema.get(key);
      const exclusive = schema.get(exclusiveKey);
      const below = key === "minimum";
      if (isNumber(exclusive)) {
        const l = toFloat(exclusive);
        if (below ? x <= l : x >= l)
          this.fail(out, strictType, path, `${strictDesc} ${num(exclusive)}`);
      }
      if (!isNumber(limit)) return;
      const l = toFloat(limit);
      if (exclusive === true ? (below ? x <= l : x >= l) : below ? x < l : x > l) {
        this.fail(
          out,
          exclusive === true ? strictType : type,
          path,
          `${exclusive === true ? strictDesc : desc} ${num(limit)}`,
        );
      }
    };
    bound(
      "maximum",
      "exclusiveMaximum",
      "number_lt",
      "number_lte",
      "Must be less than",
      "Must be less than or equal to",
    );
    bound(
      "minimum",
      "exclusiveMinimum",
      "number_gt",
      "number_gte",
      "Must be greater than",
      "Must be greater than or equal to",
    );
  }
}

/** The sub-result with the fewest failures, for anyOf/oneOf reports. */
function best(results: SchemaFailure[][]): SchemaFailure[] {
  return results.reduce((a, b) => (b.length < a.length ? b : a), results[0] ?? []);
}

const formats: Record<string, RegExp> = {
  "date-time": /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/,
  email: /^[^@\s]+@[^@\s]+$/,
  ipv4: /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
  hostname:
    /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
};

/** Formats gojsonschema checks; unknown formats pass. */
function formatOk(format: string, s: string): boolean {
  if (format === "ipv6") return /^[0-9a-fA-F:.]+$/.test(s) && s.includes(":");
  if (format === "regex") {
    try {
      new RegExp(s, "u");
      return true;
    } catch {
      return false;
    }
  }
  const re = formats[format];
  return re ? re.test(s) : true;
}
