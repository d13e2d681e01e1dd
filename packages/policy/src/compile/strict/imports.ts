/**
 * Import checks, as OPA's compiler makes them: unused imports (strict mode, while names are
 * resolved), imports that shadow one another (strict mode, and always for Rego v1), and
 * function arguments named `input` or `data` (always).
 */
import type { Body, Expr, Module, Rule, Term } from "../../ast/nodes.js";
import { forEachChild } from "../../ast/walk.js";
import type { RegoError } from "../../errors.js";
import {
  argVars,
  compileError,
  declaredVars,
  importName,
  importText,
  isKeywordImport,
  NameStack,
} from "./names.js";

/** Marks the imports a rule refers to by name, following OPA's resolver scoping. */
class ImportUses {
  private readonly ignore = new NameStack();
  constructor(private readonly unused: Set<string>) {}

  rule(rule: Rule, args: Set<string>): void {
    this.ignore.push(args);
    this.ignore.push(declaredVars(rule.body));
    for (const t of rule.ref.slice(1)) this.term(t);
    if (rule.key) this.term(rule.key);
    if (rule.value) this.term(rule.value);
    this.body(rule.body);
    this.ignore.pop();
    this.ignore.pop();
  }

  private body(body: Body): void {
    for (const e of body) this.expr(e);
  }

  private expr(e: Expr): void {
    switch (e.type) {
      case "term":
        this.term(e.term);
        break;
      case "somein":
        if (e.key) this.term(e.key);
        this.term(e.value);
        this.term(e.domain);
        break;
      case "every": {
        const locals = new Set<string>();
        if (e.key) argVars(e.key, locals);
        argVars(e.value, locals);
        this.ignore.push(locals);
        this.term(e.domain);
        this.body(e.body);
        this.ignore.pop();
        break;
      }
      default:
        break;
    }
    for (const w of e.with) {
      this.term(w.target);
      this.term(w.value);
    }
  }

  private term(t: Term): void {
    switch (t.type) {
      case "var":
        if (!this.ignore.has(t.name)) this.unused.delete(t.name);
        return;
      case "call":
        this.term(t.op);
        forEachChild(t, (c) => this.term(c));
        return;
      case "arraycompr":
      case "setcompr":
        this.ignore.push(declaredVars(t.body));
        this.term(t.term);
        this.body(t.body);
        this.ignore.pop();
        return;
      case "objectcompr":
        this.ignore.push(declaredVars(t.body));
        this.term(t.key);
        this.term(t.value);
        this.body(t.body);
        this.ignore.pop();
        return;
      case "template":
        for (const p of t.parts) if (typeof p !== "string") this.expr(p);
        return;
      default:
        forEachChild(t, (c) => this.term(c));
    }
  }
}

/** The vars of a rule's arguments (shared by its else chain). */
function ruleArgVars(rule: Rule): Set<string> {
  const out = new Set<string>();
  for (const a of rule.args ?? []) argVars(a, out);
  return out;
}

/**
 * OPA's resolver refuses arguments named `input` or `data` (any Rego version), reporting
 * the rule; it stops at the first such argument of a rule.
 */
export function argumentShadowing(module: Module, errors: RegoError[]): void {
  for (const rule of module.rules) {
    const bad = [...ruleArgVars(rule)].find((v) => v === "input" || v === "data");
    if (bad) {
      errors.push(
        compileError(rule.loc, `args must not shadow ${bad} (use a different variable name)`),
      );
    }
  }
}

/** Strict mode: `import … unused` for each import no rule refers to. */
export function unusedImports(module: Module, errors: RegoError[]): void {
  const unused = new Set<string>();
  for (const imp of module.imports) {
    const name = importName(imp);
    if (name && !isKeywordImport(imp)) unused.add(name);
  }
  if (unused.size === 0) return;
  const uses = new ImportUses(unused);
  for (const rule of module.rules) {
    const args = ruleArgVars(rule);
    for (let r: Rule | undefined = rule; r; r = r.elseRule) uses.rule(r, args);
  }
  for (const imp of module.imports) {
    const name = importName(imp);
    if (name && !isKeywordImport(imp) && unused.has(name)) {
      errors.push(compileError(imp.loc, `${importText(imp)} unused`));
    }
  }
}

/** `import must not shadow import …` for a second import binding the same name. */
export function duplicateImports(module: Module, errors: RegoError[]): void {
  const seen = new Map<string, string>();
  for (const imp of module.imports) {
    const name = importName(imp);
    if (!name) continue;
    const first = seen.get(name);
    if (first) errors.push(compileError(imp.loc, `import must not shadow ${first}`));
    else seen.set(name, importText(imp));
  }
}
