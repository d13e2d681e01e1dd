/**
 * Calls: functions and builtins by name (builtins through their context, user functions
 * through rules.ts), mocks from `with`, `print`, `rego.metadata.*`, and deeply nested calls
 * applied from an explicit stack.
 */
import type { CallTerm, Module, Term } from "../ast/nodes.js";
import { PendingExternalCall } from "../builtins/external-calls.js";
import type { BuiltinContext, BuiltinDef } from "../builtins/registry-types.js";
import type { RuleNode } from "../compile/tree.js";
import { splitHead } from "../compile/tree.js";
import { BuiltinError, BuiltinTypeError, internalError, RegoError } from "../errors.js";
import { formatValue } from "../value/format.js";
import type { Value } from "../value/value.js";
import { type FunctionTable, resolveFunction } from "./functions.js";
import { metadataChain, metadataRule } from "./metadata.js";
import type { RuleEvaluator } from "./rules.js";
import type { FunctionReplacement, QueryState } from "./state.js";
import { type Env, locOf, type TermEvaluator, type VK } from "./terms.js";

/** Calls of functions and builtins. */
export class CallEvaluator {
  constructor(
    private readonly state: QueryState,
    private readonly root: RuleNode,
    private readonly functions: FunctionTable,
    private readonly modules: Module[],
    private readonly ctx: BuiltinContext,
    private readonly terms: TermEvaluator,
    private readonly rules: RuleEvaluator,
  ) {}

  evalCall(t: CallTerm, env: Env, k: VK): boolean {
    if (t.name === "print" || t.name === "internal.print") return this.evalPrint(t, env, k);
    if (t.name === "rego.metadata.chain" || t.name === "rego.metadata.rule") {
      const rule = this.state.currentRule;
      if (!rule) return false;
      if (t.name === "rego.metadata.rule")
        return this.unifyOutput(t, 0, metadataRule(rule), env, k);
      const node = this.root.find(splitHead(rule.module.pkg, rule).path);
      const rules = node ? node.rules.map((r) => r.rule) : [rule];
      const chain = metadataChain(rule, rules, this.modules);
      return this.unifyOutput(t, 0, chain, env, k);
    }
    const replacement = this.state.overrides.funcs.get(t.name);
    if (replacement) return this.evalReplaced(t, replacement, env, k);
    return this.callByName(t.name, t, env, k);
  }

  /** Emits a call's result, through its output operand when it has one. */
  private unifyOutput(t: CallTerm, arity: number, v: Value, env: Env, k: VK): boolean {
    const output = t.args[arity];
    return output ? this.terms.unifyValue(output, v, env, () => k(true)) : k(v);
  }

  private callByName(name: string, t: CallTerm, env: Env, k: VK): boolean {
    const fn = resolveFunction(this.functions, this.root, name);
    if (!fn) throw new RegoError("eval_type_error", `undefined function ${name}`, locOf(t));
    const arity = fn.kind === "user" ? fn.node.arity : fn.def.args.length;
    const output = t.args.length === arity + 1 ? (t.args[arity] as Term) : undefined;
    const inputs = output ? t.args.slice(0, arity) : t.args;
    if (
      this.terms.callNesting > DEEP_CALL_NESTING &&
      !output &&
      (fn.kind === "user" || !fn.def.relation)
    ) {
      const v = this.deepCallValue(t, env);
      if (v !== FALLBACK) return v === undefined ? false : k(v);
    }
    this.terms.callNesting++;
    const stop = this.terms.evalTerms(inputs, env, (args) => {
      this.terms.callNesting--;
      const emit = (r: Value): boolean =>
        output ? this.terms.unifyValue(output, r, env, () => k(true)) : k(r);
      let r: boolean;
      if (fn.kind === "user") {
        const v = this.rules.callUser(fn.node, args);
        r = v === undefined ? false : emit(v);
      } else r = this.callBuiltin(fn.def, args, t, emit);
      this.terms.callNesting++;
      return r;
    });
    this.terms.callNesting--;
    return stop;
  }

  /**
   * The value of a deeply nested call (`abs(abs(...))`, `1 + 1 + ...`), computed with an
   * explicit stack: calls nested in arguments are applied innermost first, so the nesting
   * needs no JS frames. Other arguments are evaluated as usual and must have one value;
   * FALLBACK when one has several (the caller then evaluates the call as usual).
   */
  private deepCallValue(root: CallTerm, env: Env): Value | undefined | typeof FALLBACK {
    const stack: { t: CallTerm; args: Value[] }[] = [{ t: root, args: [] }];
    let result: Value | undefined;
    for (let top = stack[0]; top; top = stack[stack.length - 1]) {
      if (result !== undefined) {
        top.args.push(result);
        result = undefined;
      }
      const a = top.t.args[top.args.length];
      if (a === undefined) {
        const v = this.applyDirect(top.t, top.args);
        if (v === undefined || v === FALLBACK) return v;
        stack.pop();
        result = v;
        continue;
      }
      if (a.type === "call" && this.directlyCallable(a)) {
        stack.push({ t: a, args: [] });
        continue;
      }
      const values: Value[] = [];
      this.terms.evalTerm(a, env, (v) => values.push(v) > 1);
      if (values.length !== 1) return values.length === 0 ? undefined : FALLBACK;
      result = values[0];
    }
    return result;
  }

  /** A call whose arguments are its inputs (no output operand) to a plain function. */
  private directlyCallable(t: CallTerm): boolean {
    if (t.name === "print" || t.name === "internal.print" || t.name.startsWith("rego.metadata."))
      return false;
    if (this.state.overrides.funcs.has(t.name)) return false;
    const fn = resolveFunction(this.functions, this.root, t.name);
    if (!fn || (fn.kind === "builtin" && fn.def.relation)) return false;
    return t.args.length === (fn.kind === "user" ? fn.node.arity : fn.def.args.length);
  }

  private applyDirect(t: CallTerm, args: Value[]): Value | undefined | typeof FALLBACK {
    const fn = resolveFunction(this.functions, this.root, t.name);
    if (!fn) return FALLBACK;
    if (fn.kind === "user") return this.rules.callUser(fn.node, args);
    let out: Value | undefined;
    this.callBuiltin(fn.def, args, t, (v) => {
      out = v;
      return true;
    });
    return out;
  }

  private evalReplaced(t: CallTerm, rep: FunctionReplacement, env: Env, k: VK): boolean {
    const arity = this.arityOf(t.name);
    const output =
      arity !== undefined && t.args.length === arity + 1 ? (t.args[arity] as Term) : undefined;
    const inputs = output ? t.args.slice(0, arity) : t.args;
    const emit = (r: Value): boolean =>
      output ? this.terms.unifyValue(output, r, env, () => k(true)) : k(r);
    if (rep.kind === "value") return this.terms.evalTerms(inputs, env, () => emit(rep.value));
    const fn = resolveFunction(this.functions, this.root, rep.name);
    if (!fn) throw new RegoError("eval_type_error", `undefined function ${rep.name}`, locOf(t));
    return this.terms.evalTerms(inputs, env, (args) => {
      const results: Value[] = [];
      const savedFuncs = this.state.overrides.funcs;
      const savedCache = this.state.cache;
      // Inside a replacement, other replacements do not apply: it sees the originals.
      this.state.overrides.funcs = new Map();
      this.state.cache = new Map();
      try {
        if (fn.kind === "user") {
          const r = this.rules.callUser(fn.node, args);
          if (r !== undefined) results.push(r);
        } else {
          this.callBuiltin(fn.def, args, t, (r) => {
            results.push(r);
            return false;
          });
        }
      } finally {
        this.state.overrides.funcs = savedFuncs;
        this.state.cache = savedCache;
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
      this.terms.evalTerm(a, env, (v) => {
        values.push(typeof v === "string" ? v : formatValue(v));
        return false;
      });
      return values.length === 0 ? "<undefined>" : values.join(" ");
    });
    this.ctx.print(parts.join(" "));
    return k(true);
  }

  /**
   * Runs a builtin. Only the builtin's own work is inside the try: errors from the
   * continuation (the rest of the query) pass through untouched, so a failure deeper in
   * the query is never mistaken for this builtin's error.
   */
  private callBuiltin(def: BuiltinDef, args: Value[], t: CallTerm, emit: VK): boolean {
    if (def.relation) return this.callRelation(def, args, t, emit);
    let r: Value | undefined;
    try {
      r = def.impl(args, this.ctx);
    } catch (e) {
      return this.builtinFailed(def, e, t);
    }
    return r === undefined ? false : emit(r);
  }

  private callRelation(def: BuiltinDef, args: Value[], t: CallTerm, emit: VK): boolean {
    let it: Iterator<Value>;
    try {
      it = (def.relation as NonNullable<BuiltinDef["relation"]>)(args, this.ctx)[Symbol.iterator]();
    } catch (e) {
      return this.builtinFailed(def, e, t);
    }
    for (;;) {
      let step: IteratorResult<Value>;
      try {
        step = it.next();
      } catch (e) {
        return this.builtinFailed(def, e, t);
      }
      if (step.done) return false;
      if (emit(step.value)) {
        it.return?.();
        return true;
      }
    }
  }

  /**
   * A builtin's deliberate errors make the expression undefined (or halt under strict
   * builtin errors), as in OPA. Anything else (a stack overflow, a bug) aborts the query.
   */
  private builtinFailed(def: BuiltinDef, e: unknown, t: CallTerm): false {
    if (e instanceof PendingExternalCall) throw e;
    if (e instanceof BuiltinTypeError) {
      if (this.ctx.strict) throw new RegoError("eval_type_error", e.message, locOf(t));
      return false;
    }
    if (e instanceof BuiltinError) {
      if (this.ctx.strict) throw new RegoError("eval_builtin_error", e.message, locOf(t));
      return false;
    }
    throw internalError(e, def.name);
  }
}

/** Call nesting past which nested calls are applied from an explicit stack. */
const DEEP_CALL_NESTING = 32;

/** A nested call that the explicit stack does not handle: evaluated as usual instead. */
const FALLBACK = Symbol("fallback");
