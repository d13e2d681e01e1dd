/**
 * Documents and calls: walks `data` through base documents and rules, computes virtual
 * documents (complete, partial set, partial object, ref heads) with conflict detection and a
 * per-query cache, calls functions and builtins, and applies `with`.
 */
import type { CallTerm, Module, Rule, Term, WithModifier } from "../ast/nodes.js";
import type { BuiltinContext, BuiltinDef } from "../builtins/registry-types.js";
import type { CompiledRule, RuleNode } from "../compile/tree.js";
import { splitHead } from "../compile/tree.js";
import { BuiltinError, BuiltinTypeError, RegoError } from "../errors.js";
import { formatValue } from "../value/format.js";
import { equal, RegoObject, RegoSet, type Value } from "../value/value.js";
import { type FunctionTable, resolveFunction } from "./functions.js";
import { metadataChain, metadataRule } from "./metadata.js";
import {
  Canceller,
  type DocCache,
  type FunctionReplacement,
  inProgress,
  type Overrides,
} from "./state.js";
import { type Env, type K, locOf, TermEvaluator, type VK } from "./terms.js";
import { constantValue, forEachElement, indexValue, upsert } from "./values.js";

export interface EvaluatorOptions {
  input?: Value;
  strict: boolean;
  print: (message: string) => void;
  nowNs: bigint;
  deadline?: number;
  signal?: AbortSignal;
}

const TRUE: Term = {
  type: "scalar",
  value: true,
  loc: { file: "", row: 0, col: 0, start: 0, end: 0 },
};

function conflict(rule: Rule, message: string): RegoError {
  return new RegoError("eval_conflict_error", message, locOf(rule));
}

export class Evaluator extends TermEvaluator {
  overrides: Overrides;
  cache: DocCache = new Map();
  readonly cancel: Canceller;
  readonly ctx: BuiltinContext;
  /** The rule whose body is being evaluated, for rego.metadata.*. */
  currentRule: Rule | undefined;

  constructor(
    readonly root: RuleNode,
    readonly baseData: Value,
    readonly functions: FunctionTable,
    readonly modules: Module[],
    opts: EvaluatorOptions,
  ) {
    super();
    this.overrides = { input: opts.input, data: [], funcs: new Map() };
    this.cancel = new Canceller(opts.deadline, opts.signal);
    this.ctx = { nowNs: opts.nowNs, cache: new Map(), print: opts.print, strict: opts.strict };
  }

  // ---- data ---------------------------------------------------------------------------

  dataRoot(): Value | undefined {
    return this.materialize(this.root, this.baseData, []);
  }

  evalDataRef(path: Term[], env: Env, k: VK): boolean {
    return this.walkData(this.root, this.baseData, [], path, 0, env, k);
  }

  private overrideAt(prefix: readonly string[]): Value | undefined {
    const ov = this.overrides.data;
    for (let j = ov.length - 1; j >= 0; j--) {
      const o = ov[j] as { path: string[]; value: Value };
      if (o.path.length === prefix.length && o.path.every((p, i) => p === prefix[i])) {
        return this.patchBelow(o.value, prefix, j + 1);
      }
    }
    return undefined;
  }

  private hasOverrideBelow(prefix: readonly string[]): boolean {
    return this.overrides.data.some(
      (o) => o.path.length >= prefix.length && prefix.every((p, i) => p === o.path[i]),
    );
  }

  /** Applies overrides (from position `from` on) strictly below `prefix` to `value`. */
  private patchBelow(value: Value, prefix: readonly string[], from = 0): Value {
    let out = value;
    const ov = this.overrides.data;
    for (let j = from; j < ov.length; j++) {
      const o = ov[j] as { path: string[]; value: Value };
      if (o.path.length > prefix.length && prefix.every((p, i) => p === o.path[i])) {
        out = upsert(out, o.path.slice(prefix.length), o.value);
      }
    }
    return out;
  }

  private walkData(
    node: RuleNode | undefined,
    base: Value | undefined,
    prefix: readonly string[],
    path: Term[],
    i: number,
    env: Env,
    k: VK,
  ): boolean {
    if (this.overrides.data.length > 0) {
      const o = this.overrideAt(prefix);
      if (o !== undefined) return this.walkValue(o, path, i, env, k);
      if (!node && !this.hasOverrideBelow(prefix)) {
        return base === undefined ? false : this.walkValue(base, path, i, env, k);
      }
    } else if (!node && !numericKeyInto(base, path[i])) {
      return base === undefined ? false : this.walkValue(base, path, i, env, k);
    }
    if (node?.hasRules) {
      if (node.isFunction) return false;
      const v = base !== undefined ? base : this.nodeValue(node);
      return v === undefined ? false : this.walkValue(v, path, i, env, k);
    }
    if (i === path.length) {
      const v = this.materialize(node, base, prefix);
      return v === undefined ? false : k(v);
    }
    const p = path[i] as Term;
    const step = (key: Value): boolean => {
      const name =
        typeof key === "string" ? key : typeof key === "number" ? String(key) : undefined;
      const child = name === undefined ? undefined : node?.children.get(name);
      let childBase = base === undefined ? undefined : indexValue(base, key);
      if (childBase === undefined && name !== undefined && base instanceof RegoObject) {
        childBase = base.get(name);
      }
      const childPrefix = child ? child.path : [...prefix, String(key)];
      return this.walkData(child, childBase, childPrefix, path, i + 1, env, k);
    };
    if (p.type === "scalar") return step(p.value);
    if (p.type === "var" && env.get(p.name) === undefined) {
      const name = p.name;
      return this.dataKeys(node, base, prefix).some((key) => {
        env.set(name, key);
        const r = step(key);
        env.delete(name);
        return r;
      });
    }
    return this.evalTerm(p, env, step);
  }

  private dataKeys(
    node: RuleNode | undefined,
    base: Value | undefined,
    prefix: readonly string[],
  ): Value[] {
    const keys = new Set<Value>();
    if (base instanceof RegoObject) for (const key of base.keys()) keys.add(key);
    if (node) for (const key of node.children.keys()) keys.add(key);
    for (const o of this.overrides.data) {
      if (o.path.length > prefix.length && prefix.every((p, i) => p === o.path[i])) {
        keys.add(o.path[prefix.length] as string);
      }
    }
    return [...keys];
  }

  /** The full value of a position in `data`: base document, rules and overrides merged. */
  private materialize(
    node: RuleNode | undefined,
    base: Value | undefined,
    prefix: readonly string[],
  ): Value | undefined {
    if (this.overrides.data.length > 0) {
      const o = this.overrideAt(prefix);
      if (o !== undefined) return o;
    }
    if (node?.hasRules) {
      if (node.isFunction) return undefined;
      return base !== undefined ? base : this.nodeValue(node);
    }
    if (
      !node ||
      (node.children.size === 0 && base !== undefined && !(base instanceof RegoObject))
    ) {
      return base === undefined ? undefined : this.patchBelow(base, prefix);
    }
    const out = new RegoObject();
    if (base instanceof RegoObject) for (const [key, v] of base.entries()) out.set(key, v);
    for (const [key, child] of node.children) {
      const v = this.materialize(
        child,
        base === undefined ? undefined : indexValue(base, key),
        child.path,
      );
      if (v !== undefined) out.set(key, v);
    }
    return this.patchBelow(out, prefix);
  }

  // ---- virtual documents --------------------------------------------------------------

  nodeValue(node: RuleNode): Value | undefined {
    const cached = this.cache.get(node);
    if (cached === inProgress) {
      throw new RegoError("rego_recursion_error", `rule ${node.dottedPath} is recursive`);
    }
    if (cached !== undefined || this.cache.has(node)) return cached as Value | undefined;
    this.cache.set(node, inProgress);
    let v: Value | undefined;
    try {
      if (node.isComplete) v = this.completeValue(node);
      else if (node.isMultiSet) v = this.setValue(node);
      else v = this.objectValue(node);
      if (v !== undefined) v = this.patchBelow(v, node.path);
    } catch (e) {
      this.cache.delete(node);
      throw e;
    }
    this.cache.set(node, v);
    return v;
  }

  private candidates(node: RuleNode): CompiledRule[] {
    if (!node.index) return node.rules;
    let v: Value | undefined = this.overrides.input;
    for (const key of node.index.inputPath) {
      if (v === undefined) break;
      v = indexValue(v, key);
    }
    return node.index.candidates(v);
  }

  /**
   * Runs a rule body (then its else chain while undefined), calling `emit` with the rule's
   * env for each solution. Stops early when `emit` returns true.
   */
  private evalRuleBodies(cr: CompiledRule, env: Env, emit: (env: Env) => boolean): boolean {
    let found = false;
    const outerRule = this.currentRule;
    this.currentRule = cr.rule;
    const stop = this.evalBody(cr.rule.body, 0, env, () => {
      found = true;
      return emit(env);
    });
    this.currentRule = outerRule;
    if (!found && cr.elseRule) return this.evalRuleBodies(cr.elseRule, env, emit);
    return stop;
  }

  private completeValue(node: RuleNode): Value | undefined {
    let result: Value | undefined;
    for (const cr of this.candidates(node)) {
      this.evalRuleChain(cr, new Map(), (v, rule) => {
        if (result === undefined) result = v;
        else if (!equal(result, v))
          throw conflict(rule, "complete rules must not produce multiple outputs");
      });
    }
    if (result === undefined && node.defaultRule) result = this.defaultValue(node.defaultRule);
    return result;
  }

  /** Evaluates a single-value rule (and else chain), emitting each value it produces. */
  private evalRuleChain(
    cr: CompiledRule,
    env: Env,
    emit: (v: Value, rule: Rule) => void,
    guard: (k: K) => boolean = (k) => k(),
  ): void {
    let found = false;
    const valueTerm = cr.rule.value ?? TRUE;
    const constant = constantValue(valueTerm);
    const outerRule = this.currentRule;
    this.currentRule = cr.rule;
    this.evalBody(cr.rule.body, 0, env, () =>
      guard(() => {
        found = true;
        if (constant !== undefined) {
          emit(constant, cr.rule);
          return true;
        }
        this.evalTerm(valueTerm, env, (v) => {
          emit(v, cr.rule);
          return false;
        });
        return false;
      }),
    );
    this.currentRule = outerRule;
    if (!found && cr.elseRule) this.evalRuleChain(cr.elseRule, env, emit, guard);
  }

  private defaultValue(rule: Rule): Value | undefined {
    let out: Value | undefined;
    this.evalTerm(rule.value ?? TRUE, new Map(), (v) => {
      out = v;
      return true;
    });
    return out;
  }

  private setValue(node: RuleNode): Value {
    const out = new RegoSet();
    for (const cr of this.candidates(node)) {
      const env: Env = new Map();
      this.evalRuleBodies(cr, env, () =>
        this.evalTerm(cr.rule.key as Term, env, (v) => {
          out.add(v);
          return false;
        }),
      );
    }
    return out;
  }

  /** Partial objects and ref heads with dynamic keys, merged with child documents. */
  private objectValue(node: RuleNode): Value | undefined {
    const out = new RegoObject();
    const base = this.baseAt(node.path);
    if (base instanceof RegoObject) for (const [key, v] of base.entries()) out.set(key, v);
    for (const [key, child] of node.children) {
      const v = this.materialize(
        child,
        base === undefined ? undefined : indexValue(base, key),
        child.path,
      );
      if (v !== undefined) out.set(key, v);
    }
    for (const cr of this.candidates(node)) {
      const env: Env = new Map();
      const rule = cr.rule;
      this.evalRuleBodies(cr, env, () =>
        this.evalTerms(cr.dynamic, env, (keys) => {
          if (rule.kind === "multi") {
            return this.evalTerm(rule.key as Term, env, (v) => {
              insertPath(out, keys, v, true, rule);
              return false;
            });
          }
          return this.evalTerm(rule.value ?? TRUE, env, (v) => {
            insertPath(out, keys, v, false, rule);
            return false;
          });
        }),
      );
    }
    return out;
  }

  private baseAt(path: readonly string[]): Value | undefined {
    let v: Value | undefined = this.baseData;
    for (const key of path) {
      if (v === undefined) return undefined;
      v = indexValue(v, key);
    }
    return v;
  }

  // ---- calls --------------------------------------------------------------------------

  evalCall(t: CallTerm, env: Env, k: VK): boolean {
    if (t.name === "print" || t.name === "internal.print") return this.evalPrint(t, env, k);
    if (t.name === "rego.metadata.chain" || t.name === "rego.metadata.rule") {
      const rule = this.currentRule;
      if (!rule) return false;
      if (t.name === "rego.metadata.rule")
        return this.unifyOutput(t, 0, metadataRule(rule), env, k);
      const node = this.root.find(splitHead(rule.module.pkg, rule).path);
      const rules = node ? node.rules.map((r) => r.rule) : [rule];
      const chain = metadataChain(rule, rules, this.modules);
      return this.unifyOutput(t, 0, chain, env, k);
    }
    const replacement = this.overrides.funcs.get(t.name);
    if (replacement) return this.evalReplaced(t, replacement, env, k);
    return this.callByName(t.name, t, env, k);
  }

  /** Emits a call's result, through its output operand when it has one. */
  private unifyOutput(t: CallTerm, arity: number, v: Value, env: Env, k: VK): boolean {
    const output = t.args[arity];
    return output ? this.unifyValue(output, v, env, () => k(true)) : k(v);
  }

  private callByName(name: string, t: CallTerm, env: Env, k: VK): boolean {
    const fn = resolveFunction(this.functions, this.root, name);
    if (!fn) throw new RegoError("eval_type_error", `undefined function ${name}`, locOf(t));
    const arity = fn.kind === "user" ? fn.node.arity : fn.def.args.length;
    const output = t.args.length === arity + 1 ? (t.args[arity] as Term) : undefined;
    const inputs = output ? t.args.slice(0, arity) : t.args;
    return this.evalTerms(inputs, env, (args) => {
      const emit = (r: Value): boolean =>
        output ? this.unifyValue(output, r, env, () => k(true)) : k(r);
      if (fn.kind === "user") {
        const r = this.callUser(fn.node, args, t);
        return r === undefined ? false : emit(r);
      }
      return this.callBuiltin(fn.def, args, t, emit);
    });
  }

  private evalReplaced(t: CallTerm, rep: FunctionReplacement, env: Env, k: VK): boolean {
    const arity = this.arityOf(t.name);
    const output =
      arity !== undefined && t.args.length === arity + 1 ? (t.args[arity] as Term) : undefined;
    const inputs = output ? t.args.slice(0, arity) : t.args;
    const emit = (r: Value): boolean =>
      output ? this.unifyValue(output, r, env, () => k(true)) : k(r);
    if (rep.kind === "value") return this.evalTerms(inputs, env, () => emit(rep.value));
    const fn = resolveFunction(this.functions, this.root, rep.name);
    if (!fn) throw new RegoError("eval_type_error", `undefined function ${rep.name}`, locOf(t));
    return this.evalTerms(inputs, env, (args) => {
      const results: Value[] = [];
      const savedFuncs = this.overrides.funcs;
      const savedCache = this.cache;
      // Inside a replacement, other replacements do not apply: it sees the originals.
      this.overrides.funcs = new Map();
      this.cache = new Map();
      try {
        if (fn.kind === "user") {
          const r = this.callUser(fn.node, args, t);
          if (r !== undefined) results.push(r);
        } else {
          this.callBuiltin(fn.def, args, t, (r) => (results.push(r), false));
        }
      } finally {
        this.overrides.funcs = savedFuncs;
        this.cache = savedCache;
      }
      return results.some(emit);
    });
  }

  private arityOf(name: string): number | undefined {
    const fn = resolveFunction(this.functions, this.root, name);
    if (!fn) return undefined;
    return fn.kind === "user" ? fn.node.arity : fn.def.args.length;
  }

  private evalPrint(t: CallTerm, env: Env, k: VK): boolean {
    const parts = t.args.map((a) => {
      const values: string[] = [];
      this.evalTerm(a, env, (v) => {
        values.push(typeof v === "string" ? v : formatValue(v));
        return false;
      });
      return values.length === 0 ? "<undefined>" : values.join(" ");
    });
    this.ctx.print(parts.join(" "));
    return k(true);
  }

  private callUser(node: RuleNode, args: Value[], t: CallTerm): Value | undefined {
    let result: Value | undefined;
    for (const cr of node.rules) {
      const env: Env = new Map();
      const params = cr.rule.args ?? [];
      // Operands written as templates or calls depend on the body: unified after it.
      const late = params.map((p) => p.type === "template" || p.type === "call");
      const bindArgs = (i: number, kk: K, lateOnes: boolean): boolean => {
        if (i === params.length) return kk();
        if (late[i] !== lateOnes) return bindArgs(i + 1, kk, lateOnes);
        return this.unifyValue(params[i] as Term, args[i] as Value, env, () =>
          bindArgs(i + 1, kk, lateOnes),
        );
      };
      const hasLate = late.some(Boolean);
      bindArgs(
        0,
        () => {
          this.evalRuleChain(
            cr,
            env,
            (v, rule) => {
              if (result === undefined) result = v;
              else if (!equal(result, v)) {
                throw conflict(rule, "functions must not produce multiple outputs for same inputs");
              }
            },
            hasLate ? (kk) => bindArgs(0, kk, true) : undefined,
          );
          return false;
        },
        false,
      );
    }
    if (result === undefined && node.defaultRule) result = this.defaultValue(node.defaultRule);
    void t;
    return result;
  }

  private callBuiltin(def: BuiltinDef, args: Value[], t: CallTerm, emit: VK): boolean {
    try {
      if (def.relation) {
        for (const r of def.relation(args, this.ctx)) if (emit(r)) return true;
        return false;
      }
      const r = def.impl(args, this.ctx);
      return r === undefined ? false : emit(r);
    } catch (e) {
      if (e instanceof RegoError) throw e;
      if (e instanceof BuiltinTypeError) {
        if (this.ctx.strict) throw new RegoError("eval_type_error", e.message, locOf(t));
        return false;
      }
      if (e instanceof BuiltinError || e instanceof Error) {
        if (this.ctx.strict) throw new RegoError("eval_builtin_error", e.message, locOf(t));
        return false;
      }
      throw e;
    }
  }

  // ---- with ---------------------------------------------------------------------------

  evalWith(withs: WithModifier[], env: Env, inner: (k: K) => boolean, k: K): boolean {
    const values: (Value | FunctionReplacement)[] = [];
    const collect = (i: number): boolean => {
      if (i === withs.length) return this.runWith(withs, values, inner, k);
      const w = withs[i] as WithModifier;
      const fnRep = this.functionReplacement(w, env);
      if (fnRep) {
        values[i] = fnRep;
        return collect(i + 1);
      }
      return this.evalTerm(w.value, env, (v) => {
        values[i] = v;
        return collect(i + 1);
      });
    };
    return collect(0);
  }

  /** For a `with` whose target is a function: what replaces it. */
  private functionReplacement(w: WithModifier, env: Env): FunctionReplacement | undefined {
    const name = targetFunctionName(w.target, this.root);
    if (!name) return undefined;
    const v = w.value;
    const valueName =
      v.type === "var" && !env.has(v.name) ? v.name : v.type === "ref" ? refName(v) : undefined;
    if (valueName && resolveFunction(this.functions, this.root, valueName)) {
      return { kind: "func", name: valueName };
    }
    let value: Value | undefined;
    this.evalTerm(v, env, (x) => {
      value = x;
      return true;
    });
    return value === undefined ? undefined : { kind: "value", value };
  }

  private runWith(
    withs: WithModifier[],
    values: (Value | FunctionReplacement)[],
    inner: (k: K) => boolean,
    k: K,
  ): boolean {
    const prev = this.overrides;
    const next: Overrides = { input: prev.input, data: [...prev.data], funcs: new Map(prev.funcs) };
    withs.forEach((w, i) => {
      const v = values[i] as Value | FunctionReplacement;
      const fname = targetFunctionName(w.target, this.root);
      if (fname && isReplacement(v)) {
        next.funcs.set(fname, v);
        return;
      }
      const target = w.target;
      const head = target.type === "ref" ? target.head : target;
      const path =
        target.type === "ref" ? target.path.map((p) => (p.type === "scalar" ? p.value : null)) : [];
      if (head.type === "var" && head.name === "input") {
        next.input = upsert(next.input, path as Value[], v as Value);
      } else if (head.type === "var" && head.name === "data") {
        next.data.push({ path: path.map(String), value: v as Value });
      }
    });
    const prevCache = this.cache;
    const nextCache: DocCache = new Map();
    this.overrides = next;
    this.cache = nextCache;
    try {
      return inner(() => {
        this.overrides = prev;
        this.cache = prevCache;
        try {
          return k();
        } finally {
          this.overrides = next;
          this.cache = nextCache;
        }
      });
    } finally {
      this.overrides = prev;
      this.cache = prevCache;
    }
  }
}

/** A number key into a JSON object of base data: OPA looks up its decimal text. */
function numericKeyInto(base: Value | undefined, p: Term | undefined): boolean {
  return base instanceof RegoObject && p?.type === "scalar" && typeof p.value === "number";
}

function isReplacement(v: unknown): v is FunctionReplacement {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof RegoObject) &&
    !(v instanceof RegoSet) &&
    "kind" in v
  );
}

function refName(t: Term): string | undefined {
  if (t.type !== "ref" || t.head.type !== "var") return undefined;
  const parts = [t.head.name];
  for (const p of t.path) {
    if (p.type !== "scalar" || typeof p.value !== "string") return undefined;
    parts.push(p.value);
  }
  return parts.join(".");
}

/** The function a `with` target names (`data.x.f`, `count`, `time.now_ns`), if any. */
function targetFunctionName(target: Term, root: RuleNode): string | undefined {
  const name = target.type === "var" ? target.name : refName(target);
  if (!name || name === "input" || name === "data" || name.startsWith("input.")) return undefined;
  if (name.startsWith("data.")) {
    const node = root.find(name.split(".").slice(1));
    return node?.isFunction ? name : undefined;
  }
  return name;
}

/** Inserts `value` at `keys` in a nested object being built; conflicts are errors. */
function insertPath(
  out: RegoObject,
  keys: Value[],
  value: Value,
  multi: boolean,
  rule: Rule,
): void {
  let obj = out;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i] as Value;
    let next = obj.get(key);
    if (next === undefined) {
      next = new RegoObject();
      obj.set(key, next);
    } else if (!(next instanceof RegoObject)) {
      throw conflict(rule, "object keys must be unique");
    }
    obj = next;
  }
  const last = keys[keys.length - 1];
  if (last === undefined) {
    throw conflict(rule, "object keys must be unique");
  }
  if (multi) {
    let set = obj.get(last);
    if (set === undefined) {
      set = new RegoSet();
      obj.set(last, set);
    }
    if (!(set instanceof RegoSet)) throw conflict(rule, "object keys must be unique");
    set.add(value);
    return;
  }
  const prev = obj.get(last);
  if (prev !== undefined && !equal(prev, value)) throw conflict(rule, "object keys must be unique");
  obj.set(last, value);
}

export { forEachElement };
