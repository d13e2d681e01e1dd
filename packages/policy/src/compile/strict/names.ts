/**
 * Shared pieces of the strict-mode checks: which names a module sees as globals (rule
 * names, import aliases), how OPA prints an import, and which vars a body declares.
 */
import type { Body, Expr, Import, Loc, Module, Term } from "../../ast/nodes.js";
import { forEachChild } from "../../ast/walk.js";
import { RegoError } from "../../errors.js";

/** A compile error at `loc`, as every strict check reports it. */
export function compileError(loc: Loc, message: string): RegoError {
  return new RegoError("rego_compile_error", message, {
    file: loc.file,
    row: loc.row,
    col: loc.col,
  });
}

/** The path of an import as names (`data.a.b` → data, a, b); undefined for odd paths. */
export function importPath(imp: Import): string[] | undefined {
  const t = imp.path;
  if (t.type === "var") return [t.name];
  if (t.type !== "ref" || t.head.type !== "var") return undefined;
  const out = [t.head.name];
  for (const p of t.path) {
    if (p.type !== "scalar" || typeof p.value !== "string") return undefined;
    out.push(p.value);
  }
  return out;
}

/** `future.keywords…` and `rego.v1`: imports that bind no name a rule can use. */
export function isKeywordImport(imp: Import): boolean {
  const head = importPath(imp)?.[0];
  return head === "future" || head === "rego";
}

/** The name an import binds: its alias, else the last element of its path. */
export function importName(imp: Import): string | undefined {
  if (imp.alias) return imp.alias;
  const path = importPath(imp);
  return path?.[path.length - 1];
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A ref as OPA prints it: `data.a["b-c"]`. */
export function refText(t: Term): string {
  if (t.type === "var") return t.name;
  if (t.type !== "ref") return "?";
  let out = refText(t.head);
  for (const p of t.path) {
    if (p.type === "scalar" && typeof p.value === "string" && identifier.test(p.value)) {
      out += `.${p.value}`;
    } else if (p.type === "scalar") {
      out += `[${typeof p.value === "string" ? JSON.stringify(p.value) : String(p.value)}]`;
    } else if (p.type === "var") {
      out += `[${p.name}]`;
    } else {
      out += "[?]";
    }
  }
  return out;
}

/** An import as OPA prints it in messages: `import data.a.b as c`. */
export function importText(imp: Import): string {
  const alias = imp.alias ? ` as ${imp.alias}` : "";
  return `import ${refText(imp.path)}${alias}`;
}

/**
 * True for modules OPA holds to Rego v1's rules: v1 ones, and v0 ones importing rego.v1 or
 * parsed for `--v0-v1`.
 */
export function isV1Compatible(module: Module): boolean {
  if (!module.v0 || module.v0v1) return true;
  return module.imports.some((i) => importPath(i)?.join(".") === "rego.v1");
}

/** The first element of each rule head in `module`. */
export function ruleNames(module: Module): string[] {
  return module.rules.map((r) => String((r.ref[0] as Term & { value: unknown }).value));
}

/** The vars of an assignment or iteration pattern (all of them, object keys included). */
export function patternVars(t: Term, out: Set<string>): void {
  if (t.type === "var") out.add(t.name);
  else forEachChild(t, (c) => patternVars(c, out));
}

/** True for `x := y`, the only expressions that assign. */
export function isAssignment(e: Expr): boolean {
  return (
    e.type === "term" &&
    e.term.type === "call" &&
    e.term.name === "assign" &&
    e.term.args.length === 2
  );
}

/**
 * The vars a body declares, as OPA's resolver sees them: left sides of `:=`, `some` vars and
 * `some … in` patterns, also inside `every` bodies, but not inside comprehensions.
 */
export function declaredVars(body: Body, out: Set<string> = new Set()): Set<string> {
  for (const e of body) exprDeclaredVars(e, out);
  return out;
}

/** The vars one expression declares (see declaredVars). */
export function exprDeclaredVars(e: Expr, out: Set<string> = new Set()): Set<string> {
  if (e.type === "term" && e.term.type === "call" && isAssignment(e)) {
    patternVars(e.term.args[0] as Term, out);
  } else if (e.type === "some") {
    for (const v of e.vars) out.add(v.name);
  } else if (e.type === "somein") {
    if (e.key) patternVars(e.key, out);
    patternVars(e.value, out);
  } else if (e.type === "every") {
    declaredVars(e.body, out);
  }
  return out;
}

/**
 * The vars of function arguments OPA lets a body refer to: vars, array items and object
 * values (never object keys, sets, comprehensions or calls).
 */
export function argVars(t: Term, out: Set<string>): void {
  switch (t.type) {
    case "var":
      out.add(t.name);
      return;
    case "ref":
      argVars(t.head, out);
      for (const p of t.path) argVars(p, out);
      return;
    case "array":
      for (const x of t.items) argVars(x, out);
      return;
    case "object":
      for (const [, v] of t.entries) argVars(v, out);
      return;
    default:
      return;
  }
}

/** A stack of sets of names; a name is in it when any set holds it. */
export class NameStack {
  private readonly sets: Set<string>[] = [];
  push(s: Set<string>): void {
    this.sets.push(s);
  }
  pop(): void {
    this.sets.pop();
  }
  has(name: string): boolean {
    return this.sets.some((s) => s.has(name));
  }
}
