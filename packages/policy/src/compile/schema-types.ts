/**
 * JSON Schema to Rego types, as OPA's compiler reads a schema (its `parseSchema`): objects
 * with `properties` have exactly those keys (`required` and `additionalProperties` play no
 * part), objects without are any-keyed, arrays take their `items`, `anyOf` is a union,
 * `allOf` merges objects' properties, a local `$ref` is followed, and whatever declares no
 * type (an `enum` alone, say) is any.
 */

/** A Rego type derived from a schema. */
export type SchemaType =
  | { kind: "any" }
  | { kind: "boolean" | "number" | "string" }
  | { kind: "object"; props?: Map<string, SchemaType> }
  | { kind: "array"; items: SchemaType }
  | { kind: "or"; of: SchemaType[] };

const ANY: SchemaType = { kind: "any" };

/** Why a schema cannot be turned into a type (OPA refuses such schemas too). */
export class SchemaError extends Error {}

type Doc = Record<string, unknown>;

function asDoc(x: unknown): Doc | undefined {
  return typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Doc) : undefined;
}

/** The declared `type`s, as a list. */
function declared(schema: Doc): string[] {
  const t = schema.type;
  if (typeof t === "string") return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : [];
}

/** Converts the schemas of one document; `$ref`s resolve against that document's root. */
class SchemaReader {
  private readonly following = new Set<string>();

  constructor(private readonly root: Doc) {}

  read(x: unknown): SchemaType {
    const schema = asDoc(x);
    if (!schema) return ANY;
    if (typeof schema.$ref === "string") return this.followRef(schema.$ref);
    if (Array.isArray(schema.anyOf)) {
      const of = schema.anyOf.map((s) => this.read(s));
      const { anyOf: _, ...core } = schema;
      // Like OPA, a core schema beside anyOf counts only when it is an object with keys.
      const own = declared(schema).length > 0 ? this.read(core) : undefined;
      if (own?.kind === "object" && own.props) of.push(own);
      return of.length === 1 ? (of[0] as SchemaType) : { kind: "or", of };
    }
    if (Array.isArray(schema.allOf)) return this.read(this.mergeAllOf(schema));
    const types = declared(schema);
    // OPA checks the declared types in this order and takes the first it knows.
    if (types.includes("boolean")) return { kind: "boolean" };
    if (types.includes("string")) return { kind: "string" };
    if (types.includes("integer") || types.includes("number")) return { kind: "number" };
    if (types.includes("object") || (types.length === 0 && asDoc(schema.properties))) {
      return this.object(schema);
    }
    if (types.includes("array") || (types.length === 0 && schema.items !== undefined)) {
      return this.array(schema);
    }
    return ANY;
  }

  private object(schema: Doc): SchemaType {
    const properties = asDoc(schema.properties);
    if (!properties || Object.keys(properties).length === 0) return { kind: "object" };
    const props = new Map<string, SchemaType>();
    for (const [k, v] of Object.entries(properties)) props.set(k, this.read(v));
    return { kind: "object", props };
  }

  private array(schema: Doc): SchemaType {
    const items = schema.items;
    if (Array.isArray(items)) {
      // A tuple: each position its own type; indexes here are not constant, so a union.
      const of = items.map((s) => this.read(s));
      if (of.length === 0) return { kind: "array", items: ANY };
      return { kind: "array", items: of.length === 1 ? (of[0] as SchemaType) : { kind: "or", of } };
    }
    return { kind: "array", items: items === undefined ? ANY : this.read(items) };
  }

  /** allOf: the members must all be objects (properties merged) or all the same type. */
  private mergeAllOf(schema: Doc): Doc {
    const { allOf, ...core } = schema;
    const members = [...(allOf as unknown[]).map((m) => this.resolve(m)), core].filter(
      (m) => Object.keys(m).length > 0,
    );
    const kindOf = (m: Doc) => {
      const t = declared(m);
      if (t.length > 0) return t.join(",");
      if (asDoc(m.properties)) return "object";
      return m.items !== undefined ? "array" : "";
    };
    const kinds = new Set(members.map(kindOf).filter((k) => k !== ""));
    if (kinds.size > 1) {
      throw new SchemaError(
        `unable to merge these schemas: type mismatch: ${[...kinds].join(" and ")}`,
      );
    }
    const properties: Doc = {};
    for (const m of members) Object.assign(properties, asDoc(m.properties) ?? {});
    const kind = [...kinds][0];
    if (kind === "object") return { type: "object", properties };
    return members.find((m) => kindOf(m) !== "") ?? {};
  }

  /** A member schema with its `$ref` (if any) followed. */
  private resolve(x: unknown): Doc {
    const schema = asDoc(x) ?? {};
    return typeof schema.$ref === "string" ? this.lookup(schema.$ref) : schema;
  }

  private followRef(ref: string): SchemaType {
    // A recursive definition: OPA stops at the keys it has seen; any is the safe answer.
    if (this.following.has(ref)) return { kind: "object" };
    this.following.add(ref);
    try {
      return this.read(this.lookup(ref));
    } finally {
      this.following.delete(ref);
    }
  }

  /** `#`, `#/definitions/x`, `#/$defs/x/...`: JSON pointers into this document only. */
  private lookup(ref: string): Doc {
    if (!ref.startsWith("#")) {
      throw new SchemaError(`unable to compile the schema: remote reference ${ref} is not allowed`);
    }
    let at: unknown = this.root;
    const parts = ref
      .slice(1)
      .split("/")
      .filter((p) => p !== "");
    for (const raw of parts) {
      const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      at = asDoc(at)?.[key];
    }
    const doc = asDoc(at);
    if (!doc) throw new SchemaError(`unable to compile the schema: reference ${ref} not found`);
    return doc;
  }
}

/** The Rego type of the document a schema describes. */
export function schemaType(schema: unknown): SchemaType {
  const root = asDoc(schema);
  if (!root) {
    if (typeof schema === "boolean") return ANY;
    throw new SchemaError("unable to compile the schema: a schema must be an object");
  }
  return new SchemaReader(root).read(root);
}

/** OPA's notation for a type, as its error details print it. */
export function typeText(t: SchemaType): string {
  switch (t.kind) {
    case "object": {
      if (!t.props) return "object[any: any]";
      const keys = [...t.props.keys()].sort();
      return `object<${keys.map((k) => `${k}: ${typeText(t.props?.get(k) as SchemaType)}`).join(", ")}>`;
    }
    case "array":
      return `array[${typeText(t.items)}]`;
    case "or":
      return `any<${t.of.map(typeText).join(", ")}>`;
    default:
      return t.kind;
  }
}
