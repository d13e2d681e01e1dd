/**
 * `rego inspect -a`: the METADATA annotations of the policies, as `opa inspect -a` lists
 * them: one entry per annotation, sorted by the path it applies to (then by where the
 * METADATA block is), printed as an `ANNOTATIONS:` section or as `annotations` JSON.
 */
import type { Annotation, Module, Rule, Term } from "../../ast/nodes.js";
import { rulePath } from "../../ast/rule-path.js";

/** An annotation with what it applies to (OPA's AnnotationsRef). */
export interface AnnotationRef {
  /** The target's path without `data`: the package's, or the rule's up to its first non-string key. */
  path: string[];
  pkg: string[];
  rule?: Rule;
  /** Where the target (the package or rule) starts. */
  loc: { file: string; row: number; col: number };
  annotation: Annotation;
}

function comparePaths(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Every annotation of the modules, in OPA's order: by target path, then block location. */
export function collectAnnotations(modules: readonly Module[]): AnnotationRef[] {
  const refs: AnnotationRef[] = [];
  for (const m of modules) {
    const pkgLoc = { file: m.file, row: m.pkgLoc.row, col: m.pkgLoc.col };
    for (const annotation of m.annotations)
      refs.push({ path: m.pkg, pkg: m.pkg, loc: pkgLoc, annotation });
    for (const rule of m.rules) {
      for (const annotation of rule.annotations ?? []) {
        const loc = { file: m.file, row: rule.loc.row, col: rule.loc.col };
        refs.push({ path: rulePath(rule), pkg: m.pkg, rule, loc, annotation });
      }
    }
  }
  return refs.sort((a, b) => {
    const la = a.annotation.loc;
    const lb = b.annotation.loc;
    const byPath = comparePaths(a.path, b.path);
    if (byPath !== 0) return byPath;
    if (la.file !== lb.file) return la.file < lb.file ? -1 : 1;
    return la.row - lb.row || la.col - lb.col;
  });
}

/** The rule's head reference as OPA prints it: `allow`, `a.b`, `deny[msg]`. */
function headRef(rule: Rule): string {
  return (rule.ref as Term[])
    .map((t, i) => {
      if (t.type === "scalar" && typeof t.value === "string")
        return i === 0
          ? t.value
          : /^[A-Za-z_]\w*$/.test(t.value)
            ? `.${t.value}`
            : `[${JSON.stringify(t.value)}]`;
      if (t.type === "var") return `[${t.name}]`;
      if (t.type === "scalar") return `[${JSON.stringify(t.value)}]`;
      return "[_]";
    })
    .join("");
}

/** Go's encoding/json of a value: object keys sorted at every level. */
function sortedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedJson);
  if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortedJson(o[k])]),
    );
  }
  return value;
}

interface Author {
  name?: string;
  email?: string;
}

function authors(fields: Record<string, unknown>): Author[] {
  const list = Array.isArray(fields.authors) ? fields.authors : [];
  return list.map((a): Author => {
    if (typeof a !== "string") return a as Author;
    const m = /^(.*?)\s*<([^>]+)>\s*$/.exec(a);
    if (!m) return { name: a.trim() };
    return m[1] ? { name: m[1], email: m[2] } : { email: m[2] };
  });
}

function authorText(a: Author): string {
  if (!a.email) return a.name ?? "";
  return a.name ? `${a.name} <${a.email}>` : `<${a.email}>`;
}

interface Resource {
  ref: string;
  description?: string;
}

function resources(fields: Record<string, unknown>): Resource[] {
  const list = Array.isArray(fields.related_resources) ? fields.related_resources : [];
  return list.map((r) => (typeof r === "string" ? { ref: r } : (r as Resource)));
}

/** Each `schemas` entry: the path it types, and a schema reference or an inline definition. */
function schemas(
  fields: Record<string, unknown>,
): { path: string; schema?: string; definition?: unknown }[] {
  const list = Array.isArray(fields.schemas) ? fields.schemas : [];
  return list.flatMap((entry) =>
    Object.entries(entry as Record<string, unknown>).map(([path, v]) =>
      typeof v === "string" ? { path, schema: v } : { path, definition: v },
    ),
  );
}

/** A dotted reference as AST terms: the head a var, the rest strings. */
function refTerms(text: string): { type: string; value: string }[] {
  return text.split(".").map((p, i) => ({ type: i === 0 ? "var" : "string", value: p }));
}

const PAGE_WIDTH = 80;

function truncate(s: string, max: number): string {
  return s.length < max ? s : `${s.slice(0, max - 3)}...`;
}

/** OPA's list: ` key<sep><padding>value`, keys padded to the longest, lines cut at 80. */
function list(title: string, entries: [string, string][], separator: string): string[] {
  if (entries.length === 0) return [];
  const width = Math.max(...entries.map(([k]) => k.length));
  const lines = entries.map(([k, v]) =>
    truncate(v ? ` ${k}${separator}${" ".repeat(width - k.length)}${v}` : ` ${k}`, PAGE_WIDTH),
  );
  return [`${title}:`, ...lines, ""];
}

function entryLines(ref: AnnotationRef): string[] {
  const f = ref.annotation.fields;
  const title =
    typeof f.title === "string" && f.title.trim() !== "" ? f.title.trim() : ref.path.join(".");
  const lines = [title, "=".repeat(Math.min(title.length, PAGE_WIDTH)), ""];
  if (typeof f.description === "string" && f.description !== "") lines.push(f.description, "");
  lines.push(`Package:  ${ref.pkg.join(".")}`);
  if (ref.rule) lines.push(`Rule:     ${headRef(ref.rule)}`);
  lines.push(`Location: ${ref.loc.file}:${ref.loc.row}`);
  if (ref.annotation.scope) lines.push(`Scope: ${ref.annotation.scope}`);
  if (f.entrypoint === true) lines.push("Entrypoint: true");
  lines.push("");
  const oneLine = (s: string) => s.replace(/\n/g, " ");
  const orgs = Array.isArray(f.organizations) ? f.organizations.map(String) : [];
  lines.push(
    ...list(
      "Organizations",
      orgs.map((o) => [oneLine(o), ""]),
      "",
    ),
  );
  lines.push(
    ...list(
      "Authors",
      authors(f).map((a) => [oneLine(authorText(a)), ""]),
      "",
    ),
  );
  lines.push(
    ...list(
      "Schemas",
      schemas(f).map((s) => [s.path, s.schema ?? JSON.stringify(sortedJson(s.definition))]),
      ": ",
    ),
  );
  lines.push(
    ...list(
      "Related Resources",
      resources(f).map((r) => [oneLine(r.ref), r.description ?? ""]),
      " ",
    ),
  );
  const custom =
    f.custom !== null && typeof f.custom === "object" ? (f.custom as Record<string, unknown>) : {};
  lines.push(
    ...list(
      "Custom",
      Object.keys(custom)
        .sort()
        .map((k) => [k, JSON.stringify(sortedJson(custom[k]))]),
      ": ",
    ),
  );
  return lines;
}

/** The `ANNOTATIONS:` section of the pretty output ("" when there are none). */
export function annotationsText(refs: readonly AnnotationRef[]): string {
  if (refs.length === 0) return "";
  return `${["ANNOTATIONS:", ...refs.flatMap(entryLines)].join("\n")}\n`;
}

/** One annotation as OPA's JSON: its fields (keys sorted), the target's location and path. */
function annotationJson(ref: AnnotationRef): unknown {
  const f = ref.annotation.fields;
  const body: Record<string, unknown> = { scope: ref.annotation.scope };
  if (typeof f.title === "string" && f.title !== "") body.title = f.title;
  if (typeof f.description === "string" && f.description !== "") body.description = f.description;
  if (f.entrypoint === true) body.entrypoint = true;
  if (Array.isArray(f.organizations) && f.organizations.length > 0)
    body.organizations = f.organizations;
  const rs = resources(f);
  if (rs.length > 0)
    body.related_resources = rs.map((r) => ({
      ref: r.ref,
      ...(r.description ? { description: r.description } : {}),
    }));
  const as = authors(f);
  if (as.length > 0)
    body.authors = as.map((a) => ({
      ...(a.name ? { name: a.name } : {}),
      ...(a.email ? { email: a.email } : {}),
    }));
  const ss = schemas(f);
  if (ss.length > 0)
    body.schemas = ss.map((s) => ({
      path: refTerms(s.path),
      ...(s.schema !== undefined
        ? { schema: refTerms(s.schema) }
        : { definition: sortedJson(s.definition) }),
    }));
  if (f.custom !== null && typeof f.custom === "object" && Object.keys(f.custom).length > 0)
    body.custom = sortedJson(f.custom);
  const sortedBody = Object.fromEntries(
    Object.keys(body)
      .sort()
      .map((k) => [k, body[k]]),
  );
  return {
    annotations: sortedBody,
    location: ref.loc,
    path: [{ type: "var", value: "data" }, ...ref.path.map((p) => ({ type: "string", value: p }))],
  };
}

/** The `annotations` list of `--format json`. */
export function annotationsJson(refs: readonly AnnotationRef[]): unknown[] {
  return refs.map(annotationJson);
}
