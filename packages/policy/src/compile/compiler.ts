/**
 * The compiler: resolves names, merges every module's rules into one tree under `data`,
 * checks rule kinds, safety (reordering bodies), calls and recursion, and indexes rules.
 * The checks run in OPA's stage order; the first stage with errors ends compilation, its
 * errors sorted by location and cut at the error limit (`CheckOptions.maxErrors`).
 */

import { constantValue } from "../ast/constant-value.js";
import type { Body, Loc, Module, Rule, Term } from "../ast/nodes.js";
import { allVars } from "../ast/walk.js";
import { lookupBuiltin } from "../builtins/registry.js";
import { RegoError, RegoErrorList } from "../errors.js";
import { isStackOverflow, nestingMessage } from "../syntax/nesting.js";
import { equal, stringifyJSON, type Value } from "../value/value.js";
import { checkCalls, checkWithTargets, variadic } from "./calls.js";
import { limitErrors } from "./error-limit.js";
import { buildIndex } from "./indexing.js";
import { rewriteNegatedOperands, rewriteQueryNegations } from "./negated-operands.js";
import { checkRecursion } from "./recursion.js";
import { importAliases, Resolver } from "./resolve.js";
import { SafetyChecker } from "./safety.js";
import { checkSchemaRefs, SchemaChecker, schemaKind } from "./schema-check.js";
import { type CheckOptions, earlyChecks, lateChecks } from "./strict/index.js";
import { type CompiledRule, descendants, RuleNode, splitHead } from "./tree.js";
import { checkTypes, type RuleKind, ruleKinds } from "./types.js";

/** The result of compiling: the rule tree under `data` and the modules. */
export interface CompiledPolicy {
  root: RuleNode;
  modules: Module[];
}

/** Operators handled by the evaluator itself rather than the builtin table. */
export const languageOperators = new Map<string, number>([
  ["eq", 2],
  ["assign", 2],
]);

function ruleError(code: RegoError["code"], rule: Rule, message: string): RegoError {
  return new RegoError(code, message, {
    file: rule.loc.file,
    row: rule.loc.row,
    col: rule.loc.col,
  });
}

/**
 * Runs one compile step over one rule or query. The parser's nesting limit keeps trees
 * shallow enough for the compiler's recursion; should one still overflow the stack, that is
 * a rego_compile_error at `loc`, never a RangeError.
 */
function guarded(loc: Loc | undefined, errors: RegoError[], step: () => void): void {
  try {
    step();
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    const where = loc ? { file: loc.file, row: loc.row, col: loc.col } : undefined;
    errors.push(new RegoError("rego_compile_error", nestingMessage(), where));
  }
}

function sortErrors(errors: RegoError[]): RegoError[] {
  return [...errors].sort((a, b) => {
    const la = a.location;
    const lb = b.location;
    if (!la || !lb) return la ? -1 : lb ? 1 : 0;
    if (la.file !== lb.file) return la.file < lb.file ? -1 : 1;
    return la.row - lb.row || la.col - lb.col;
  });
}

/** Errors without repeats (the resolver and the strict checks may say the same thing). */
function uniqueErrors(errors: RegoError[]): RegoError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.location?.file}:${e.location?.row}:${e.location?.col}:${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Compiles modules into a rule tree and checks queries against it. */
export class Compiler {
  readonly errors: RegoError[] = [];
  readonly root = new RuleNode([], "data");
  private readonly counter = { n: 0 };
  private schemaChecker?: SchemaChecker;

  /** `checks`: strict mode and capabilities, as `rego check` asks. */
  constructor(private readonly checks: CheckOptions = {}) {}

  /** The arity of a user function (`data.x.f`) or builtin. */
  readonly arity = (name: string): number | undefined => {
    if (languageOperators.has(name)) return languageOperators.get(name);
    if (variadic.has(name)) return undefined;
    if (name.startsWith("data.")) {
      const node = this.root.find(name.split(".").slice(1));
      return node?.isFunction ? node.arity : undefined;
    }
    const b = lookupBuiltin(name);
    if (this.checks.builtins && !this.checks.builtins.has(name)) return undefined;
    if (b) return b.args.length;
    return this.checks.declaredBuiltins?.get(name);
  };

  compile(modules: Module[]): CompiledPolicy {
    // Strict-mode and Rego v1 checks read rules as written, so before names are resolved.
    const early = earlyChecks(modules, this.checks);
    const names = new Map<string, Set<string>>();
    for (const m of modules) {
      const key = m.pkg.join(".");
      const set = names.get(key) ?? new Set<string>();
      for (const r of m.rules) set.add(String((r.ref[0] as Term & { value: string }).value));
      names.set(key, set);
    }
    for (const m of modules) {
      const resolver = new Resolver({
        pkg: m.pkg,
        ruleNames: names.get(m.pkg.join(".")) as Set<string>,
        aliases: importAliases(m),
        errors: this.errors,
        counter: this.counter,
        v0: m.v0,
      });
      for (const r of m.rules) guarded(r.loc, this.errors, () => resolver.resolveRule(r));
    }
    if (early.errors.length > 0) {
      const resolver = early.localsFailed ? this.errors : [];
      this.failIf(uniqueErrors([...early.errors, ...resolver]));
    }
    this.failIf([]);
    for (const m of modules) {
      let n = this.root;
      for (const key of m.pkg) n = n.child(key);
      for (const r of m.rules) this.place(m, r);
    }
    // OPA's stages from here, in its order; the first that fails ends compilation.
    for (const n of descendants(this.root)) this.classify(n);
    const conflicts = this.errors.splice(0);
    const rules = sortedRules(modules);
    this.stage(rules, (r) => checkWithTargets(r, this.arity, this.errors));
    this.failIf(conflicts);
    this.stage(rules, (r) => checkCalls(r, this.arity, this.errors));
    const safety = new SafetyChecker(this.arity, this.errors, this.counter);
    this.stage(rules, (r) => this.checkRuleSafety(safety, r));
    guarded(undefined, this.errors, () => checkRecursion(this.root, this.errors));
    this.failIf([]);
    const kinds = ruleKinds(this.root);
    this.stage(rules, (r) => this.checkRuleTypes(r, kinds));
    guarded(undefined, this.errors, () => rewriteNegatedOperands(modules, this.counter));
    this.failIf(lateChecks(modules, this.checks));
    this.indexRules(this.root);
    return { root: this.root, modules };
  }

  /** The CheckTypes stage for one rule: schema-typed refs, then builtin operands. */
  private checkRuleTypes(rule: Rule, kinds: RuleKind): void {
    if (!this.checks.schemas) {
      checkTypes(rule, this.errors, kinds);
      return;
    }
    this.schemaChecker ??= new SchemaChecker(this.checks.schemas);
    const typed = this.schemaChecker.typedFor(rule, this.errors);
    checkSchemaRefs(rule, typed, this.errors);
    checkTypes(rule, this.errors, kinds, (name) => schemaKind(typed, name));
  }

  /** Runs one compile stage over every rule, then stops compiling if it found errors. */
  private stage(rules: Rule[], check: (r: Rule) => void): void {
    for (const r of rules) guarded(r.loc, this.errors, () => check(r));
    this.failIf([]);
  }

  /**
   * Ends compilation when the current stage (`found` plus what it added to `this.errors`)
   * has errors: they are reported in location order, up to the error limit.
   */
  private failIf(found: RegoError[]): void {
    const errors = [...found, ...this.errors];
    if (errors.length === 0) return;
    throw new RegoErrorList(limitErrors(sortErrors(errors), this.checks.maxErrors));
  }

  /**
   * Resolves and checks a query body; throws RegoErrorList on errors. `partial`: the body is
   * for partial evaluation, where OPA reads `==` as `=` (its RewriteEquals stage).
   */
  compileQuery(body: Body, pkg: string[] = [], modules: Module[] = [], partial = false): Body {
    const ruleNames = new Set<string>();
    for (const m of modules) {
      if (m.pkg.join(".") !== pkg.join(".")) continue;
      for (const r of m.rules) ruleNames.add(String((r.ref[0] as Term & { value: string }).value));
    }
    const errors: RegoError[] = [];
    const resolver = new Resolver({
      pkg,
      ruleNames,
      aliases: new Map(),
      errors,
      counter: this.counter,
    });
    let resolved: Body = body;
    guarded(body[0]?.loc, errors, () => {
      resolved = resolver.resolveQuery(body);
      new SafetyChecker(this.arity, errors, this.counter).checkBody(resolved, new Set());
      checkCalls({ body: resolved } as Rule, this.arity, errors);
      checkTypes({ body: resolved } as Rule, errors, ruleKinds(this.root));
      checkWithTargets({ body: resolved } as Rule, this.arity, errors);
      if (errors.length === 0)
        rewriteQueryNegations(resolved, { counter: this.counter, equalIsUnify: partial });
    });
    if (errors.length > 0) throw new RegoErrorList(sortErrors(errors));
    return resolved;
  }

  private place(m: Module, rule: Rule): void {
    const { path, dynamic } = splitHead(m.pkg, rule);
    const node = this.root.find([]) as RuleNode;
    let n = node;
    for (const key of path) n = n.child(key);
    if (rule.isDefault && dynamic.length > 0) {
      this.placeKeyedDefault(n, dynamic, rule);
      return;
    }
    if (rule.isDefault) {
      if (n.defaultRule) {
        this.errors.push(
          ruleError("rego_type_error", rule, `multiple default rules ${n.dottedPath} found`),
        );
      }
      n.defaultRule = rule;
      return;
    }
    n.rules.push(compileRule(rule, dynamic));
  }

  /** `default a[1] := v`: a default for one constant key path below node `n`. */
  private placeKeyedDefault(n: RuleNode, dynamic: Term[], rule: Rule): void {
    const keys = dynamic.map((t) => constantValue(t));
    if (keys.some((k) => k === undefined)) {
      this.errors.push(ruleError("rego_compile_error", rule, "default rule head must be ground"));
      return;
    }
    const values = keys as Value[];
    const same = n.keyedDefaults.find(
      (d) =>
        d.keys.length === values.length && d.keys.every((k, i) => equal(k, values[i] as Value)),
    );
    if (same) {
      const path = [n.dottedPath, ...values.map((k) => `[${stringifyJSON(k)}]`)].join("");
      this.errors.push(ruleError("rego_type_error", rule, `multiple default rules ${path} found`));
      return;
    }
    n.keyedDefaults.push({ keys: values, rule });
  }

  /** Decides a node's kind; reports rules of different kinds for one document. */
  private classify(node: RuleNode): void {
    const rules = node.rules;
    const all = [...rules.map((r) => r.rule), ...(node.defaultRule ? [node.defaultRule] : [])];
    if (all.length > 0) {
      const funcs = all.filter((r) => r.kind === "func");
      if (funcs.length > 0 && funcs.length < all.length) {
        this.errors.push(
          ruleError(
            "rego_type_error",
            all[0] as Rule,
            `conflicting rules ${node.dottedPath} found`,
          ),
        );
      }
      node.isFunction = funcs.length === all.length;
      if (node.isFunction) {
        node.arity = (funcs[0] as Rule).args?.length ?? 0;
        for (const f of funcs) {
          if ((f.args?.length ?? 0) !== node.arity) {
            this.errors.push(
              ruleError("rego_type_error", f, `conflicting rules ${node.dottedPath} found`),
            );
          }
        }
      }
      node.isComplete =
        node.keyedDefaults.length === 0 &&
        rules.every((r) => r.rule.kind === "single" && r.dynamic.length === 0);
      node.isMultiSet =
        rules.length > 0 && rules.every((r) => r.rule.kind === "multi" && r.dynamic.length === 0);
      const single = rules.some((r) => r.rule.kind === "single" && r.dynamic.length === 0);
      const multi = rules.some((r) => r.rule.kind === "multi" && r.dynamic.length === 0);
      if ((single && rules.length > 0 && !node.isComplete) || (multi && !node.isMultiSet)) {
        this.errors.push(
          ruleError(
            "rego_type_error",
            all[0] as Rule,
            `conflicting rules ${node.dottedPath} found`,
          ),
        );
      }
      if (node.defaultRule && !node.isComplete && !node.isFunction) {
        this.errors.push(
          ruleError(
            "rego_type_error",
            node.defaultRule,
            `conflicting rules ${node.dottedPath} found`,
          ),
        );
      }
      if ((node.isComplete || node.isFunction) && node.children.size > 0 && rules.length > 0) {
        this.errors.push(
          ruleError(
            "rego_type_error",
            all[0] as Rule,
            `conflicting rules ${node.dottedPath} found`,
          ),
        );
      }
    }
  }

  private checkRuleSafety(safety: SafetyChecker, rule: Rule): void {
    for (let r: Rule | undefined = rule; r; r = r.elseRule) {
      const bound = new Set<string>();
      for (const a of rule.args ?? []) allVars(a, bound);
      // The key and value may move into the body (see checkBodyAndHead); the head's ref
      // terms stay, the rule tree being built from them.
      const heads: Term[] = [];
      if (r.key) heads.push(r.key);
      if (r.value) heads.push(r.value);
      const kept = safety.checkBodyAndHead(r.body, heads, bound, r.loc, r.ref.slice(1));
      if (r.key) r.key = kept.shift();
      if (r.value) r.value = kept.shift();
    }
  }

  private indexRules(root: RuleNode): void {
    for (const n of descendants(root)) {
      if (!n.isFunction && n.rules.length > 0) n.index = buildIndex(n.rules);
    }
  }
}

/** Every rule of every module, modules in file-name order as OPA's compiler walks them. */
function sortedRules(modules: Module[]): Rule[] {
  const sorted = [...modules].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return sorted.flatMap((m) => m.rules);
}

function compileRule(rule: Rule, dynamic: Term[]): CompiledRule {
  const compiled: CompiledRule = { rule, dynamic };
  if (rule.elseRule) compiled.elseRule = compileRule(rule.elseRule, dynamic);
  return compiled;
}
