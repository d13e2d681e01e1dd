/**
 * Rules: the values that rule bodies produce for complete documents, partial sets, partial
 * objects and ref heads, and for user functions, with else chains, defaults and conflicts.
 * Documents (documents.ts) decide when a rule's value is needed and cache it.
 */

import { constantValue } from "../ast/constant-value.js";
import type { Rule, Term } from "../ast/nodes.js";
import type { CompiledRule, RuleNode } from "../compile/tree.js";
import { collectionTooLarge, RegoError } from "../errors.js";
import { equal, RegoObject, RegoSet, type Value } from "../value/value.js";
import type { QueryState } from "./state.js";
import { type Env, type K, locOf, type TermEvaluator } from "./terms.js";
import { indexValue } from "./values.js";

const TRUE: Term = {
  type: "scalar",
  value: true,
  loc: { file: "", row: 0, col: 0, start: 0, end: 0 },
};

/** An eval_conflict_error located at the rule that produced the second value. */
export function conflict(rule: Rule, message: string): RegoError {
  return new RegoError("eval_conflict_error", message, locOf(rule));
}

/** Evaluation of rule bodies into values. */
export class RuleEvaluator {
  constructor(
    private readonly state: QueryState,
    private readonly terms: TermEvaluator,
  ) {}

  private candidates(node: RuleNode): CompiledRule[] {
    if (!node.index) return node.rules;
    let v: Value | undefined = this.state.overrides.input;
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
    const outerRule = this.state.currentRule;
    this.state.currentRule = cr.rule;
    const tracer = this.state.tracer;
    if (tracer) tracer.enterRule(cr.rule);
    const stop = this.terms.evalBody(cr.rule.body, 0, env, () => {
      found = true;
      if (!tracer) return emit(env);
      tracer.exitRule(cr.rule);
      const r = emit(env);
      if (!r) tracer.redoRule(cr.rule);
      return r;
    });
    if (tracer) tracer.leaveRule(cr.rule);
    this.state.currentRule = outerRule;
    if (!found && cr.elseRule) return this.evalRuleBodies(cr.elseRule, env, emit);
    return stop;
  }

  /** A complete rule's value (its default when no body holds); conflicts are errors. */
  completeValue(node: RuleNode): Value | undefined {
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
    const outerRule = this.state.currentRule;
    this.state.currentRule = cr.rule;
    const tracer = this.state.tracer;
    if (tracer) tracer.enterRule(cr.rule);
    this.terms.evalBody(cr.rule.body, 0, env, () =>
      guard(() => {
        if (constant !== undefined) {
          found = true;
          if (tracer) tracer.exitRule(cr.rule, true);
          emit(constant, cr.rule);
          return true;
        }
        // A value that is undefined fails the body, as in OPA (which moves the head's refs
        // into the body): the else chain is tried next.
        this.terms.evalTerm(valueTerm, env, (v) => {
          found = true;
          emit(v, cr.rule);
          return false;
        });
        if (tracer) {
          tracer.exitRule(cr.rule);
          tracer.redoRule(cr.rule);
        }
        return false;
      }),
    );
    if (tracer) tracer.leaveRule(cr.rule);
    this.state.currentRule = outerRule;
    if (!found && cr.elseRule) this.evalRuleChain(cr.elseRule, env, emit, guard);
  }

  private defaultValue(rule: Rule): Value | undefined {
    if (this.state.tracer) {
      this.state.tracer.enterRule(rule);
      this.state.tracer.exitRule(rule);
      this.state.tracer.leaveRule(rule);
    }
    let out: Value | undefined;
    this.terms.evalTerm(rule.value ?? TRUE, new Map(), (v) => {
      out = v;
      return true;
    });
    return out;
  }

  /** `p[key]` of a partial set or object, from only the rules that can produce `key`. */
  keyedValue(node: RuleNode, key: Value): Value | undefined {
    if (node.isMultiSet) {
      for (const cr of node.rules) {
        const env: Env = new Map();
        const found = this.terms.unifyValue(cr.rule.key as Term, key, env, () =>
          this.evalRuleBodies(cr, env, () => true),
        );
        if (found) return key;
      }
      return undefined;
    }
    const out = new RegoObject();
    for (const cr of node.rules) {
      const env: Env = new Map();
      const rule = cr.rule;
      const [first, ...rest] = cr.dynamic as [Term, ...Term[]];
      this.terms.unifyValue(first, key, env, () =>
        this.evalRuleBodies(cr, env, () =>
          this.terms.evalTerms(rest, env, (keys) => {
            const valueTerm = rule.kind === "multi" ? (rule.key as Term) : (rule.value ?? TRUE);
            return this.terms.evalTerm(valueTerm, env, (v) => {
              insertPath(out, [key, ...keys], v, rule.kind === "multi", rule);
              return false;
            });
          }),
        ),
      );
    }
    return out.get(key);
  }

  /** A partial set: every key its rules produce. */
  setValue(node: RuleNode): Value {
    const out = new RegoSet();
    for (const cr of this.candidates(node)) {
      const env: Env = new Map();
      this.evalRuleBodies(cr, env, () =>
        this.terms.evalTerm(cr.rule.key as Term, env, (v) => {
          out.add(v);
          if (out.size > this.state.maxCollectionSize) throw this.ruleTooLarge(node, out.size);
          return false;
        }),
      );
    }
    return out;
  }

  private ruleTooLarge(node: RuleNode, size: number): RegoError {
    return collectionTooLarge(`rule ${node.dottedPath}`, size, this.state.maxCollectionSize);
  }

  /** A user function applied to `args`; undefined when no body (nor default) holds. */
  callUser(node: RuleNode, args: Value[]): Value | undefined {
    let result: Value | undefined;
    for (const cr of node.rules) {
      const env: Env = new Map();
      const params = cr.rule.args ?? [];
      // Operands written as templates or calls depend on the body: unified after it.
      const late = params.map((p) => p.type === "template" || p.type === "call");
      const bindArgs = (i: number, kk: K, lateOnes: boolean): boolean => {
        if (i === params.length) return kk();
        if (late[i] !== lateOnes) return bindArgs(i + 1, kk, lateOnes);
        return this.terms.unifyValue(params[i] as Term, args[i] as Value, env, () =>
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
    return result;
  }

  /**
   * Partial objects and ref heads with dynamic keys, added to `out` (which holds the child
   * documents already).
   */
  objectValue(node: RuleNode, out: RegoObject): Value | undefined {
    for (const cr of this.candidates(node)) {
      const env: Env = new Map();
      const rule = cr.rule;
      this.evalRuleBodies(cr, env, () =>
        this.terms.evalTerms(cr.dynamic, env, (keys) => {
          if (rule.kind === "multi") {
            return this.terms.evalTerm(rule.key as Term, env, (v) => {
              insertPath(out, keys, v, true, rule);
              return false;
            });
          }
          return this.terms.evalTerm(rule.value ?? TRUE, env, (v) => {
            insertPath(out, keys, v, false, rule);
            return false;
          });
        }),
      );
    }
    for (const d of node.keyedDefaults) {
      if (!hasPath(out, d.keys))
        insertPath(out, d.keys, this.defaultValue(d.rule) ?? true, false, d.rule);
    }
    return out;
  }
}

/** True when `keys` lead to a value inside `obj`. */
function hasPath(obj: RegoObject, keys: Value[]): boolean {
  let v: Value | undefined = obj;
  for (const key of keys) {
    v = v === undefined ? undefined : indexValue(v, key);
  }
  return v !== undefined;
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
