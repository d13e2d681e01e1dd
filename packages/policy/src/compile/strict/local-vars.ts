/**
 * Unused local variables, counted as OPA's compiler counts them while it renames locals:
 * a var declared by `some` (or as an `every` key or value) and never used is always an
 * error; in strict mode so is a var assigned with `:=` and never used again, and a function
 * argument its bodies never use. A body with a renaming error (say, `var x assigned above`,
 * which the resolver reports) gets no unused-var errors, as in OPA.
 */
import type { Body, Expr, Loc, Module, Rule, Term } from "../../ast/nodes.js";
import { forEachChild } from "../../ast/walk.js";
import type { RegoError } from "../../errors.js";
import {
  argVars,
  compileError,
  declaredVars,
  exprDeclaredVars,
  isAssignment,
  NameStack,
} from "./names.js";

type Occurrence = "seen" | "arg" | "assigned" | "declared";

interface Level {
  occurrence: Map<string, Occurrence>;
  count: Map<string, number>;
  /** Where each assigned var was assigned. */
  at: Map<string, Loc>;
}

const newLevel = (): Level => ({ occurrence: new Map(), count: new Map(), at: new Map() });

/** Scopes of one rule body: the body itself, then one per comprehension or `every`. */
class Scopes {
  readonly levels: Level[] = [newLevel()];
  get top(): Level {
    return this.levels[this.levels.length - 1] as Level;
  }
  known(name: string): boolean {
    return this.levels.some((l) => l.occurrence.has(name));
  }
  insert(name: string, occ: Occurrence, at?: Loc): void {
    this.top.occurrence.set(name, occ);
    this.top.count.set(name, 1);
    if (at) this.top.at.set(name, at);
  }
  /** One more use of `name`, counted where it was introduced. */
  seen(name: string): void {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const l = this.levels[i] as Level;
      const c = l.count.get(name);
      if (c !== undefined) {
        l.count.set(name, c + 1);
        return;
      }
    }
    this.top.count.set(name, 1);
  }
  count(name: string): number {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const c = (this.levels[i] as Level).count.get(name);
      if (c !== undefined) return c;
    }
    return 0;
  }
}

/**
 * Vars of a term. A comprehension adds the vars of its head and body less those it declares
 * itself: OPA renames those first, and its Vars() then sees only the outer names.
 */
function termVars(t: Term, out: Set<string> = new Set()): Set<string> {
  switch (t.type) {
    case "var":
      out.add(t.name);
      break;
    case "arraycompr":
    case "setcompr":
    case "objectcompr": {
      const inner = new Set<string>();
      for (const h of t.type === "objectcompr" ? [t.key, t.value] : [t.term]) termVars(h, inner);
      for (const e of t.body) exprVars(e, inner);
      const own = declaredVars(t.body);
      for (const v of inner) if (!own.has(v)) out.add(v);
      break;
    }
    case "template":
      // `$"{x}"`: the embedded expressions use their vars (forEachChild has no parts).
      for (const p of t.parts) if (typeof p !== "string") exprVars(p, out);
      break;
    default:
      forEachChild(t, (c) => termVars(c, out));
  }
  return out;
}

/** Vars of one expression of a comprehension body (see termVars). */
function exprVars(e: Expr, out: Set<string>): void {
  if (e.type === "term") termVars(e.term, out);
  else if (e.type === "some") for (const v of e.vars) out.add(v.name);
  else {
    if (e.key) termVars(e.key, out);
    termVars(e.value, out);
    termVars(e.domain, out);
    if (e.type === "every") for (const x of e.body) exprVars(x, out);
  }
  for (const w of e.with) {
    termVars(w.target, out);
    termVars(w.value, out);
  }
}

/** The walk over one rule body (one branch of an else chain). */
class BodyWalk {
  readonly scopes = new Scopes();
  /** A renaming error or an earlier unused-var error: no further unused-var errors. */
  failed = false;
  readonly ignore = new NameStack();

  constructor(
    private readonly globals: Set<string>,
    private readonly strict: boolean,
    readonly errors: RegoError[],
  ) {}

  private local(name: string): boolean {
    return name !== "_" && !(this.globals.has(name) && !this.ignore.has(name));
  }

  /** A new local; redeclaring one of the current scope is the resolver's error. */
  private declare(name: string, occ: Occurrence, at?: Loc): void {
    if (name === "_") return;
    if (this.scopes.top.occurrence.has(name)) {
      this.failed = true;
      return;
    }
    this.scopes.insert(name, occ, at);
  }

  body(body: Body, used: Set<string>): void {
    for (const e of body) this.expr(e);
    this.report(body, used);
  }

  private expr(e: Expr): void {
    if (isAssignment(e)) {
      const [lhs, rhs] = (e as Expr & { term: { args: Term[] } }).term.args as [Term, Term];
      if (e.negated) {
        this.failed = true;
        return;
      }
      this.term(rhs);
      for (const w of e.with) this.term(w.value);
      this.assignTarget(lhs, e.loc);
      return;
    }
    switch (e.type) {
      case "some":
        for (const v of e.vars) this.declare(v.name, "declared");
        break;
      case "somein": {
        const domain = termVars(e.domain);
        const outs = new Set<string>();
        if (e.key) termVars(e.key, outs);
        termVars(e.value, outs);
        for (const v of [...outs].sort()) if (!domain.has(v)) this.declare(v, "declared");
        this.term(e.value);
        this.term(e.domain);
        if (e.key) this.term(e.key);
        break;
      }
      case "every":
        this.every(e);
        break;
      case "term":
        this.term(e.term);
        break;
    }
    for (const w of e.with) {
      this.term(w.target);
      this.term(w.value);
    }
  }

  private every(e: Expr & { type: "every" }): void {
    this.term(e.domain);
    const locals = new Set<string>();
    this.scopes.levels.push(newLevel());
    for (const t of e.key ? [e.key, e.value] : [e.value]) {
      if (t.type === "var" && t.name !== "_") {
        locals.add(t.name);
        this.declare(t.name, "declared");
      }
    }
    this.ignore.push(locals);
    this.body(e.body, new Set());
    this.ignore.pop();
    this.scopes.levels.pop();
  }

  private assignTarget(t: Term, at: Loc): void {
    switch (t.type) {
      case "var":
        this.declare(t.name, "assigned", at);
        return;
      case "array":
        for (const x of t.items) this.assignTarget(x, at);
        return;
      case "object":
        for (const [, v] of t.entries) this.assignTarget(v, at);
        return;
      default:
        this.failed = true;
    }
  }

  /** A use of every var in `t`; comprehensions get scopes of their own. */
  term(t: Term): void {
    switch (t.type) {
      case "var":
        // A bare `input` or `data` is the root document, never a use of a local.
        if (t.name === "input" || t.name === "data" || !this.local(t.name)) return;
        if (this.scopes.known(t.name)) this.scopes.seen(t.name);
        else this.scopes.insert(t.name, "seen");
        return;
      case "ref":
        if (t.head.type === "var") {
          const { name } = t.head;
          if (this.local(name) && this.scopes.known(name)) this.scopes.seen(name);
          else if (this.local(name)) this.scopes.insert(name, "seen");
        } else this.term(t.head);
        for (const p of t.path) this.term(p);
        return;
      case "call":
        if (t.op.type === "var" && this.shadowed(t.op.name)) this.failed = true;
        forEachChild(t, (c) => this.term(c));
        return;
      case "arraycompr":
      case "setcompr":
      case "objectcompr":
        this.comprehension(t);
        return;
      case "template":
        for (const p of t.parts) if (typeof p !== "string") this.expr(p);
        return;
      default:
        forEachChild(t, (c) => this.term(c));
    }
  }

  /** `called function f shadowed`: calling a name declared as a local. */
  private shadowed(name: string): boolean {
    for (const l of this.scopes.levels) {
      const occ = l.occurrence.get(name);
      if (occ && occ !== "seen") return true;
    }
    return false;
  }

  comprehension(t: Term & { type: "arraycompr" | "setcompr" | "objectcompr" }): void {
    const heads = t.type === "objectcompr" ? [t.key, t.value] : [t.term];
    const used = new Set<string>();
    for (const h of heads) termVars(h, used);
    this.scopes.levels.push(newLevel());
    this.ignore.push(declaredVars(t.body));
    this.body(t.body, used);
    for (const h of heads) this.term(h);
    this.ignore.pop();
    this.scopes.levels.pop();
  }

  /** The unused assigned (strict) and declared vars of the scope a body just closed. */
  private report(body: Body, used: Set<string>): void {
    if (this.failed) return;
    const top = this.scopes.top;
    const unused = (occ: Occurrence) =>
      [...top.occurrence]
        .filter(([v, o]) => o === occ && this.scopes.count(v) <= 1 && !used.has(v))
        .map(([v]) => v)
        .sort();
    if (this.strict) {
      for (const v of unused("assigned")) {
        const at = top.at.get(v) ?? body[0]?.loc;
        if (at) this.errors.push(compileError(at, `assigned var ${v} unused`));
      }
    }
    if (this.errors.length > 0) {
      this.failed = true;
      return;
    }
    // Vars the compiler generated (`__local0__`, in partial evaluation's support rules) are
    // no one's to use.
    for (const v of unused("declared").filter((x) => !x.startsWith("__local"))) {
      const at = body.find((e) => exprDeclaredVars(e).has(v))?.loc ?? body[0]?.loc;
      if (at) this.errors.push(compileError(at, `declared var ${v} unused`));
    }
    if (this.errors.length > 0) this.failed = true;
  }
}

/** Vars a rule head uses: they count as uses of the body's locals. */
function headVars(rule: Rule): Set<string> {
  const out = new Set<string>();
  for (const t of rule.ref.slice(1)) termVars(t, out);
  if (rule.key) termVars(rule.key, out);
  if (rule.value) termVars(rule.value, out);
  return out;
}

/** Comprehensions written in a rule head, each checked on its own as OPA does. */
function headComprehensions(rule: Rule, walk: () => BodyWalk): void {
  const visit = (t: Term): void => {
    if (t.type === "arraycompr" || t.type === "setcompr" || t.type === "objectcompr") {
      walk().comprehension(t);
      return;
    }
    if (t.type === "ref") {
      visit(t.head);
      for (const p of t.path) visit(p);
    } else if (t.type === "array" || t.type === "set") for (const x of t.items) visit(x);
    else if (t.type === "object") {
      for (const [k, v] of t.entries) {
        visit(k);
        visit(v);
      }
    } else if (t.type === "call") for (const a of t.args) visit(a);
    else if (t.type === "template") {
      for (const p of t.parts) if (typeof p !== "string" && p.type === "term") visit(p.term);
    }
  };
  for (const t of rule.ref.slice(1)) visit(t);
  if (rule.key) visit(rule.key);
  if (rule.value) visit(rule.value);
}

/** Checks one rule (with its else chain); `globals` are the names resolved to `data`. */
function checkRule(rule: Rule, globals: Set<string>, strict: boolean, errors: RegoError[]): void {
  const args = new Set<string>();
  const argUses = new Map<string, number>();
  for (const a of rule.args ?? []) {
    argVars(a, args);
    for (const v of argList(a)) argUses.set(v, (argUses.get(v) ?? 0) + 1);
  }
  const unusedArgs = new Set(strict ? [...argUses.keys()] : []);
  for (let r: Rule | undefined = rule; r; r = r.elseRule) {
    const headErrors: RegoError[] = [];
    headComprehensions(r, () => new BodyWalk(globals, strict, headErrors));
    errors.push(...headErrors);
    if (r.value) for (const v of termVars(r.value)) unusedArgs.delete(v);
    const walk = new BodyWalk(globals, strict, []);
    for (const [v, n] of argUses) {
      walk.scopes.insert(v, "arg");
      for (let i = 1; i < n; i++) walk.scopes.seen(v);
    }
    walk.ignore.push(new Set([...args, ...declaredVars(r.body)]));
    walk.body(r.body, headVars(r));
    errors.push(...walk.errors);
    for (const v of [...unusedArgs]) if (walk.scopes.count(v) > 1) unusedArgs.delete(v);
  }
  for (const v of [...unusedArgs].sort()) {
    errors.push(
      compileError(rule.loc, `unused argument ${v}. (hint: use _ (wildcard variable) instead)`),
    );
  }
}

/** Every var of an argument in order, repeats kept (a repeat counts as a use). */
function argList(t: Term): string[] {
  const out: string[] = [];
  const visit = (x: Term): void => {
    if (x.type === "var") {
      if (x.name !== "_") out.push(x.name);
    } else if (x.type === "ref") {
      visit(x.head);
      for (const p of x.path) visit(p);
    } else if (x.type === "array") for (const i of x.items) visit(i);
    else if (x.type === "object") for (const [, v] of x.entries) visit(v);
  };
  visit(t);
  return out;
}

/** Unused-var errors of every rule of a module. */
export function unusedLocals(
  module: Module,
  globals: Set<string>,
  strict: boolean,
  errors: RegoError[],
): void {
  for (const rule of module.rules) checkRule(rule, globals, strict, errors);
}
