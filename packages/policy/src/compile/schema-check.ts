/**
 * Type checking against JSON Schemas (`-s/--schema`), as OPA's type checker does: `input`
 * takes the global schema's type, and a rule's METADATA `schemas:` entries (`- input:
 * schema.x`, `- data.y: schema["y"]`) give the documents they name a schema's type for that
 * rule. A ref that selects a key the type does not have is `undefined ref`, with OPA's
 * detail lines; the types found also feed the builtin operand checks (types.ts).
 */
import type { Annotation, Rule, Term } from "../ast/nodes.js";
import { RegoError } from "../errors.js";
import { visitRule } from "./calls.js";
import { type SchemaType, schemaType } from "./schema-types.js";
import type { Kind } from "./types.js";

/** The schemas given: the global input schema (a file) and those of a directory by name. */
export interface SchemaSet {
  /** `-s <file>`: the schema of `input` for every rule. */
  input?: unknown;
  /** `-s <dir>`: each file's schema by its ref (`schema.a.b` for `<dir>/a/b.json`). */
  byRef: Map<string, unknown>;
}

/** The typed documents in effect for one rule: `["input"]` or `["data", "x"]` prefixes. */
export type Typed = { prefix: string[]; type: SchemaType }[];

/** `schema.a.b` or `schema["a"]["b"]` as the key of SchemaSet.byRef; undefined if neither. */
export function schemaRefKey(text: string): string | undefined {
  const m = /^schema((?:\.[A-Za-z_][\w-]*|\[\s*"[^"]*"\s*\])*)$/.exec(text.trim());
  if (!m) return undefined;
  const parts = [...(m[1] ?? "").matchAll(/\.([A-Za-z_][\w-]*)|\[\s*"([^"]*)"\s*\]/g)].map(
    (p) => (p[1] ?? p[2]) as string,
  );
  return ["schema", ...parts].join(".");
}

/** Checks rules against schemas; one per compilation, caching each schema's type. */
export class SchemaChecker {
  private readonly types = new Map<string, SchemaType>();
  private readonly input?: SchemaType;

  constructor(private readonly set: SchemaSet) {
    if (set.input !== undefined) this.input = schemaType(set.input);
  }

  /** The typed documents for `rule`: the global input, then its annotations' entries. */
  typedFor(rule: Rule, errors: RegoError[]): Typed {
    const typed: Typed = this.input ? [{ prefix: ["input"], type: this.input }] : [];
    const annotations: Annotation[] = [
      ...rule.module.annotations.filter((a) => a.scope === "package" || a.scope === "subpackages"),
      ...(rule.annotations ?? []),
    ];
    for (const a of annotations) {
      const entries = Array.isArray(a.fields.schemas) ? a.fields.schemas : [];
      for (const entry of entries) {
        if (typeof entry !== "object" || entry === null) continue;
        for (const [target, ref] of Object.entries(entry as Record<string, unknown>)) {
          const type = this.annotationType(ref, a, errors);
          if (!type) continue;
          const prefix = target.split(".");
          // A later entry for the same document replaces the earlier one.
          const at = typed.findIndex((t) => t.prefix.join(".") === prefix.join("."));
          if (at >= 0) typed.splice(at, 1);
          typed.push({ prefix, type });
        }
      }
    }
    return typed;
  }

  private annotationType(ref: unknown, a: Annotation, errors: RegoError[]): SchemaType | undefined {
    const key = typeof ref === "string" ? schemaRefKey(ref) : undefined;
    if (!key) return undefined;
    const cached = this.types.get(key);
    if (cached) return cached;
    if (!this.set.byRef.has(key)) {
      errors.push(
        new RegoError("rego_type_error", `undefined schema: ${key}`, {
          file: a.loc.file,
          row: a.loc.row,
          col: a.loc.col,
        }),
      );
      return undefined;
    }
    const type = schemaType(this.set.byRef.get(key));
    this.types.set(key, type);
    return type;
  }
}

/** The type a path of constant keys selects, or undefined where it is not known. */
function select(
  type: SchemaType,
  keys: readonly (string | number | undefined)[],
): { type?: SchemaType; missing?: number } {
  let t: SchemaType = type;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (t.kind === "object") {
      if (!t.props) return {};
      if (typeof key !== "string") return {};
      const next = t.props.get(key);
      if (!next) return { missing: i };
      t = next;
    } else if (t.kind === "array") {
      t = t.items;
    } else return {};
  }
  return { type: t };
}

/** Constant keys of a ref path (undefined where a key is a var or other term). */
function keysOf(path: readonly Term[]): (string | number | undefined)[] {
  return path.map((p) =>
    p.type === "scalar" && (typeof p.value === "string" || typeof p.value === "number")
      ? p.value
      : undefined,
  );
}

/** The document prefix and the rest of `name`, for the typed document it falls under. */
function under(typed: Typed, name: readonly string[]) {
  for (const t of [...typed].reverse()) {
    if (t.prefix.every((p, i) => name[i] === p)) return t;
  }
  return undefined;
}

/** The kind of `name` (`input.a.b`, `data.x.y`) under the rule's schemas; undefined: any. */
export function schemaKind(typed: Typed, name: readonly string[]): Kind | undefined {
  const t = under(typed, name);
  if (!t) return undefined;
  const found = select(t.type, name.slice(t.prefix.length)).type;
  if (!found || found.kind === "any" || found.kind === "or") return undefined;
  return found.kind;
}

/** OPA's rendering of a ref in error details: `input.a["b c"][x]`. */
function refText(head: string, path: readonly Term[]): string {
  let out = head;
  for (const p of path) {
    if (p.type === "scalar" && typeof p.value === "string" && /^[A-Za-z_]\w*$/.test(p.value)) {
      out += `.${p.value}`;
    } else if (p.type === "scalar") out += `[${JSON.stringify(p.value)}]`;
    else if (p.type === "var") out += `[${p.name.replace(/\$\d+$/, "")}]`;
    else out += "[_]";
  }
  return out;
}

/** Reports refs into schema-typed documents that select keys their types lack. */
export function checkSchemaRefs(rule: Rule, typed: Typed, errors: RegoError[]): void {
  if (typed.length === 0) return;
  visitRule(rule, (term) => {
    if (term.type !== "ref" || term.head.type !== "var") return;
    const head = term.head.name;
    if (head !== "input" && head !== "data") return;
    const keys = keysOf(term.path);
    const name = [head, ...keys.map((k) => (typeof k === "string" ? k : "\u0000"))];
    const t = under(typed, name);
    if (!t) return;
    const offset = t.prefix.length - 1;
    const { missing } = select(t.type, keys.slice(offset));
    if (missing === undefined) return;
    const pos = offset + missing;
    const ref = refText(head, term.path);
    const before = refText(head, term.path.slice(0, pos));
    const pad = " ".repeat(before.length + 1);
    const parent = select(t.type, keys.slice(offset, pos)).type;
    const oneOf =
      parent?.kind === "object" && parent.props
        ? [...parent.props.keys()]
            .sort()
            .map((k) => JSON.stringify(k))
            .join(" ")
        : "";
    const message = [
      `undefined ref: ${ref}`,
      ref,
      `${pad}^`,
      `${pad}have: ${JSON.stringify(keys[pos])}`,
      `${pad}want (one of): [${oneOf}]`,
    ].join("\n\t");
    const loc = term.head.loc ?? term.loc;
    errors.push(
      new RegoError("rego_type_error", message, { file: loc.file, row: loc.row, col: loc.col }),
    );
  });
}
