/**
 * Support rules: rules that depend on unknowns but cannot be inlined (a default value, an
 * else chain, a function, a whole partial set, `disableInlining`) are written again, with
 * their bodies partially evaluated, in package `partial.<their package>`; the residual
 * queries refer to them as `data.partial.<package>.<rule>`, as OPA's support modules do.
 */
import type { Body, Expr, Module, Rule, Term } from "../ast/nodes.js";
import { allVars } from "../ast/walk.js";
import type { RuleNode } from "../compile/tree.js";
import { mapBody, mapTerm, NO_LOC, valueTerm } from "./terms.js";

/** What support rules need from the partial evaluator. */
export interface SupportHost {
  subRun<T>(body: Body, finish: (saved: Expr[]) => T): T[];
  freshNames(): (name: string) => Term;
  plug(t: Term): Term;
  withResidual<T>(names: Iterable<string>, f: () => T): T;
}

const TRUE: Term = valueTerm(true);

/** One branch of a partially evaluated rule body: its residual and its head. */
interface Branch {
  body: Body;
  ref: Term[];
  key?: Term;
  value?: Term;
}

export class SupportRules {
  /** Nodes written (true) or found impossible to write (false). */
  private readonly done = new Map<RuleNode, boolean>();
  private readonly byPackage = new Map<string, Module>();

  constructor(private readonly host: SupportHost) {}

  /** Writes the node's support rules once; false when they cannot be written. */
  ensure(node: RuleNode): boolean {
    const known = this.done.get(node);
    if (known !== undefined) return known;
    this.done.set(node, true);
    const rules = this.write(node);
    if (!rules) {
      this.done.set(node, false);
      return false;
    }
    for (const r of rules)
      this.moduleFor(r.module.pkg).rules.push({ ...r, module: this.moduleFor(r.module.pkg) });
    return true;
  }

  /** The support modules written, in the order their packages were first needed. */
  modules(): Module[] {
    return [...this.byPackage.values()];
  }

  private moduleFor(pkg: readonly string[]): Module {
    const key = pkg.join(".");
    let m = this.byPackage.get(key);
    if (!m) {
      m = {
        file: "",
        pkg: ["partial", ...pkg],
        pkgLoc: NO_LOC,
        imports: [],
        rules: [],
        v0: false,
        annotations: [],
      };
      this.byPackage.set(key, m);
    }
    return m;
  }

  private write(node: RuleNode): Rule[] | undefined {
    if (node.keyedDefaults.length > 0 || node.children.size > 0) return undefined;
    const out: Rule[] = [];
    for (const cr of node.rules) {
      const rules = this.writeChain(cr.rule, node.isFunction);
      if (!rules) return undefined;
      out.push(...rules);
    }
    // OPA writes the default after the rules.
    if (node.defaultRule) out.push({ ...node.defaultRule, annotations: undefined });
    return out;
  }

  /** A rule and its else chain, each body partially evaluated. */
  private writeChain(rule: Rule, isFunction: boolean): Rule[] | undefined {
    const rename = this.host.freshNames();
    const args = rule.args?.map((a) => mapTerm(a, rename));
    const params = new Set<string>();
    for (const a of args ?? []) allVars(a, params);
    const chain: Rule[] = [];
    for (let r: Rule | undefined = rule; r; r = r.elseRule) chain.push(r);
    const branches = this.host.withResidual(params, () =>
      chain.map((r) => this.branches(r, rename, isFunction)),
    );
    const head = (r: Rule, b: Branch): Rule => ({
      ...r,
      ref: b.ref,
      args,
      key: b.key,
      value: b.value,
      body: b.body,
      elseRule: undefined,
      annotations: undefined,
    });
    if (chain.length === 1) return (branches[0] ?? []).map((b) => head(rule, b));
    // An else chain stays one chain: each link must have held in at most one way.
    const links = chain.map((r, i) => ({ r, b: branches[i] ?? [] })).filter((l) => l.b.length > 0);
    if (links.some((l, i) => l.b.length > 1 && i < links.length - 1)) return undefined;
    const last = links[links.length - 1];
    if (!last) return [];
    if (links.length === 1) return last.b.map((b) => head(chain[0] as Rule, { ...b }));
    let tail: Rule | undefined;
    for (let i = links.length - 1; i >= 0; i--) {
      const l = links[i] as { r: Rule; b: Branch[] };
      const base = i === 0 ? (chain[0] as Rule) : l.r;
      tail = { ...head(base, l.b[0] as Branch), elseRule: tail };
    }
    return tail ? [tail] : [];
  }

  private branches(r: Rule, rename: (n: string) => Term, isFunction: boolean): Branch[] {
    const body = mapBody(r.body, rename);
    const ref = r.ref.map((t) => mapTerm(t, rename));
    const key = r.key && mapTerm(r.key, rename);
    const value = r.value && mapTerm(r.value, rename);
    return this.host.subRun(body, (saved) => ({
      body: saved,
      ref: ref.map((t) => this.host.plug(t)),
      key: key && this.host.plug(key),
      value: value ? this.host.plug(value) : r.kind === "multi" || isFunction ? undefined : TRUE,
    }));
  }
}
