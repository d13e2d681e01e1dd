/**
 * Name resolution: rule names and import aliases become `data` refs, call operators get
 * their full names, `_` becomes a fresh var, and vars declared in nested scopes
 * (comprehensions, `every`) are renamed so that they cannot clash with outer ones.
 */
import type { Body, Expr, Loc, Module, Rule, Term, VarTerm } from "../ast/nodes.js";
import { RegoError } from "../errors.js";

/** What a module can see by name. */
export interface ResolveContext {
  pkg: string[];
  /** First head segment of every rule in the package (all its modules). */
  ruleNames: Set<string>;
  /** Import alias → the imported ref. */
  aliases: Map<string, Term>;
  errors: RegoError[];
  counter: { n: number };
  /** Rego v0: `input` and `data` may be declared as local vars (v1 refuses the shadowing). */
  v0?: boolean;
}

class Scope {
  readonly declared = new Map<string, string>();
  readonly used = new Set<string>();
  constructor(
    readonly parent: Scope | undefined,
    readonly nested: boolean,
  ) {}

  lookup(name: string): string | undefined {
    return this.declared.get(name) ?? this.parent?.lookup(name);
  }
}

function scalarString(value: string, loc: Loc): Term {
  return { type: "scalar", value, loc };
}

function dataRef(path: string[], loc: Loc): Term {
  return {
    type: "ref",
    head: { type: "var", name: "data", loc },
    path: path.map((p) => scalarString(p, loc)),
    loc,
  };
}

/** Import aliases of a module. */
export function importAliases(module: Module): Map<string, Term> {
  const out = new Map<string, Term>();
  for (const imp of module.imports) {
    const t = imp.path;
    // `import input as x` / `import data as d`: the alias names the whole document.
    if (t.type === "var" && (t.name === "input" || t.name === "data")) {
      if (imp.alias) out.set(imp.alias, t);
      continue;
    }
    if (t.type !== "ref" || t.head.type !== "var") continue;
    const head = t.head.name;
    if (head !== "data" && head !== "input") continue;
    const last = t.path[t.path.length - 1];
    const name = imp.alias ?? (last?.type === "scalar" ? String(last.value) : undefined);
    if (name) out.set(name, t);
  }
  return out;
}

/** Resolves the names of one module's rules (or of a query) in place. */
export class Resolver {
  constructor(readonly ctx: ResolveContext) {}

  private fresh(name: string): string {
    this.ctx.counter.n++;
    return `${name}$${this.ctx.counter.n}`;
  }

  private declare(scope: Scope, v: VarTerm, checkAssigned: boolean): VarTerm {
    if (v.name === "_") return { ...v, name: this.fresh("_") };
    if ((v.name === "input" || v.name === "data") && !this.ctx.v0) {
      this.ctx.errors.push(
        err(v.loc, `variables must not shadow ${v.name} (use a different variable name)`),
      );
    } else if (checkAssigned && scope.declared.has(v.name)) {
      this.ctx.errors.push(err(v.loc, `var ${v.name} assigned above`));
    } else if (checkAssigned && scope.used.has(v.name)) {
      this.ctx.errors.push(err(v.loc, `var ${v.name} referenced above`));
    }
    // Every declaration gets a unique name, so that a var of the same name used before the
    // declaration (say, inside a comprehension) stays a different var.
    const name = v.name.includes("$") ? v.name : this.fresh(v.name);
    const written = v.name.includes("$") ? v.name.slice(0, v.name.indexOf("$")) : v.name;
    scope.declared.set(written, name);
    return { ...v, name };
  }

  /** Resolves a rule in place: head, args, body and else chain. */
  resolveRule(rule: Rule): void {
    const scope = new Scope(undefined, false);
    if (rule.args) rule.args = rule.args.map((a) => this.declarePattern(scope, a, false));
    rule.body = this.resolveBody(rule.body, scope);
    rule.ref = rule.ref.map((t, i) => (i === 0 ? t : this.term(t, scope)));
    if (rule.key) rule.key = this.term(rule.key, scope);
    if (rule.value) rule.value = this.term(rule.value, scope);
    if (rule.elseRule) {
      rule.elseRule.args = rule.args;
      this.resolveElse(rule.elseRule, rule.args);
    }
  }

  private resolveElse(rule: Rule, args: Term[] | undefined): void {
    const scope = new Scope(undefined, false);
    if (args) for (const a of args) this.declarePattern(scope, a, false);
    rule.body = this.resolveBody(rule.body, scope);
    if (rule.value) rule.value = this.term(rule.value, scope);
    if (rule.elseRule) this.resolveElse(rule.elseRule, args);
  }

  /** Resolves a query body (top-level scope, no renaming). */
  resolveQuery(body: Body): Body {
    return this.resolveBody(body, new Scope(undefined, false));
  }

  private resolveBody(body: Body, scope: Scope): Body {
    return body.map((e) => this.expr(e, scope));
  }

  private expr(e: Expr, scope: Scope): Expr {
    const withs = e.with.map((w) => ({
      ...w,
      target: this.withTarget(w.target),
      value: this.term(w.value, scope),
    }));
    switch (e.type) {
      // As with :=, a var declared by `some` must not have been used or assigned above.
      case "some":
        return { ...e, vars: e.vars.map((v) => this.declare(scope, v, true)), with: withs };
      case "somein": {
        const domain = this.term(e.domain, scope);
        const key = e.key ? this.declarePattern(scope, e.key, true) : undefined;
        const value = this.declarePattern(scope, e.value, true);
        return { ...e, domain, key, value, with: withs };
      }
      case "every": {
        const domain = this.term(e.domain, scope);
        const inner = new Scope(scope, true);
        const key = e.key ? this.declarePattern(inner, e.key, false) : undefined;
        const value = this.declarePattern(inner, e.value, false);
        const body = this.resolveBody(e.body, inner);
        return { ...e, domain, key, value, body, with: withs };
      }
      case "term": {
        const t = e.term;
        if (t.type === "call" && t.name === "assign" && t.args.length === 2) {
          const target = t.args[0] as Term;
          if (target.type !== "var" && target.type !== "array" && target.type !== "object") {
            this.ctx.errors.push(err(e.loc, `cannot assign to ${assignTargetName(target)}`));
          }
          const rhs = this.term(t.args[1] as Term, scope);
          const lhs = this.declarePattern(scope, t.args[0] as Term, true);
          return { ...e, term: { ...t, args: [lhs, rhs] }, with: withs };
        }
        return { ...e, term: this.term(t, scope), with: withs };
      }
    }
  }

  /** Declares every var of an assignment or iteration pattern, then resolves the pattern. */
  private declarePattern(scope: Scope, t: Term, checkAssigned: boolean): Term {
    switch (t.type) {
      case "var":
        return this.declare(scope, t, checkAssigned);
      case "array":
        return { ...t, items: t.items.map((x) => this.declarePattern(scope, x, checkAssigned)) };
      case "object":
        return {
          ...t,
          entries: t.entries.map(([k, v]) => [
            this.term(k, scope),
            this.declarePattern(scope, v, checkAssigned),
          ]),
        };
      default:
        return this.term(t, scope);
    }
  }

  private withTarget(t: Term): Term {
    if (t.type === "var") return this.globalName(t) ?? t;
    if (t.type === "ref" && t.head.type === "var") {
      const head = this.globalName(t.head);
      if (head?.type === "ref") return { ...t, head: head.head, path: [...head.path, ...t.path] };
      if (head?.type === "var") return { ...t, head };
    }
    return t;
  }

  /** A rule name or import alias as a ref; undefined for anything else. */
  private globalName(v: VarTerm): Term | undefined {
    if (v.name === "input" || v.name === "data") return undefined;
    const alias = this.ctx.aliases.get(v.name);
    if (alias) return { ...alias, loc: v.loc };
    if (this.ctx.ruleNames.has(v.name)) return dataRef([...this.ctx.pkg, v.name], v.loc);
    return undefined;
  }

  private varTerm(v: VarTerm, scope: Scope): Term {
    if (v.name === "_") return { ...v, name: this.fresh("_") };
    const local = scope.lookup(v.name);
    if (local) return local === v.name ? v : { ...v, name: local };
    const global = this.globalName(v);
    if (global) return global;
    scope.used.add(v.name);
    return v;
  }

  term(t: Term, scope: Scope): Term {
    switch (t.type) {
      case "scalar":
        return t;
      case "var":
        return this.varTerm(t, scope);
      case "ref": {
        const head = this.term(t.head, scope);
        const path = t.path.map((p) => this.term(p, scope));
        if (head.type === "ref") return { ...t, head: head.head, path: [...head.path, ...path] };
        return { ...t, head, path };
      }
      case "array":
      case "set":
        return { ...t, items: t.items.map((x) => this.term(x, scope)) };
      case "object":
        return {
          ...t,
          entries: t.entries.map(([k, v]) => [this.term(k, scope), this.term(v, scope)]),
        };
      case "arraycompr":
      case "setcompr": {
        const inner = new Scope(scope, true);
        const body = this.resolveBody(t.body, inner);
        return { ...t, body, term: this.term(t.term, inner) };
      }
      case "objectcompr": {
        const inner = new Scope(scope, true);
        const body = this.resolveBody(t.body, inner);
        return { ...t, body, key: this.term(t.key, inner), value: this.term(t.value, inner) };
      }
      case "call":
        return { ...t, name: this.callName(t.op), args: t.args.map((a) => this.term(a, scope)) };
      case "template":
        return {
          ...t,
          parts: t.parts.map((p) => (typeof p === "string" ? p : this.expr(p, scope))),
        };
    }
  }

  /** The full name of a call operator: `data.pkg.f` for functions, else the builtin name. */
  private callName(op: Term): string {
    const head = op.type === "var" ? op : op.type === "ref" ? op.head : undefined;
    if (head?.type !== "var") return "?";
    const rest =
      op.type === "ref" ? op.path.map((p) => (p.type === "scalar" ? String(p.value) : "?")) : [];
    const global = this.globalName(head);
    if (global?.type === "ref" && global.head.type === "var") {
      const path = global.path.map((p) => (p.type === "scalar" ? String(p.value) : "?"));
      return [global.head.name, ...path, ...rest].join(".");
    }
    return [head.name, ...rest].join(".");
  }
}

function err(loc: Loc, message: string): RegoError {
  return new RegoError("rego_compile_error", message, {
    file: loc.file,
    row: loc.row,
    col: loc.col,
  });
}

/** What the left of `:=` is, in OPA's words, when it is nothing that can be assigned. */
function assignTargetName(t: Term): string {
  if (t.type !== "scalar") return t.type === "call" ? "call" : t.type;
  if (t.value === null) return "null";
  return typeof t.value === "string"
    ? "string"
    : typeof t.value === "boolean"
      ? "boolean"
      : "number";
}
