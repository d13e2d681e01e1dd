/**
 * The rule tree: every rule sits at the node named by the constant prefix of its head
 * (`data.<package>.<name>...`); the rest of its head (keys computed by the body) is kept
 * as `dynamic` terms.
 */
import type { Rule, Term } from "../ast/nodes.js";
import type { Value } from "../value/value.js";
import type { RuleIndex } from "./indexing.js";

/** A rule placed in the tree. */
export interface CompiledRule {
  rule: Rule;
  /** Head terms after the node's path (for partial objects and ref heads). */
  dynamic: Term[];
  elseRule?: CompiledRule;
}

/** A default rule for a key path below a node, with the key values. */
export interface KeyedDefault {
  keys: Value[];
  rule: Rule;
}

/** A node of `data`: child nodes by key and the rules that define its value. */
export class RuleNode {
  readonly children = new Map<string, RuleNode>();
  readonly rules: CompiledRule[] = [];
  defaultRule?: Rule;
  /**
   * Default rules whose head goes on past this node with keys that are not strings
   * (`default a[1] := 0`, `default a[true] := 0`): each applies to its key of this node's
   * object, when no other rule defines that key.
   */
  readonly keyedDefaults: KeyedDefault[] = [];
  /** Constant value of the default rule, when it is constant. */
  defaultValue?: Value;
  /** Set after compile when the node has enough rules to be worth indexing. */
  index?: RuleIndex;
  /** True when the node is a function (all its rules are functions). */
  isFunction = false;
  /** True when the node's value is a complete document (single-value rules, no dynamic keys). */
  isComplete = false;
  /** True when the node is a partial set (contains-rules, no dynamic keys). */
  isMultiSet = false;
  /** Function arity, when a function. */
  arity = 0;

  constructor(
    readonly path: string[],
    readonly name: string,
  ) {}

  child(key: string): RuleNode {
    let c = this.children.get(key);
    if (!c) {
      c = new RuleNode([...this.path, key], key);
      this.children.set(key, c);
    }
    return c;
  }

  /** The node at `path` below this one, if any. */
  find(path: readonly string[]): RuleNode | undefined {
    let node: RuleNode | undefined = this;
    for (const key of path) {
      node = node.children.get(key);
      if (!node) return undefined;
    }
    return node;
  }

  /** True when the node or any descendant has rules. */
  get hasRules(): boolean {
    return this.rules.length > 0 || this.defaultRule !== undefined || this.keyedDefaults.length > 0;
  }

  /** Dotted path with the `data` prefix, as OPA names rules in messages. */
  get dottedPath(): string {
    return ["data", ...this.path].join(".");
  }
}

/** `node` and every node below it, parents first. */
export function descendants(node: RuleNode): RuleNode[] {
  const out: RuleNode[] = [];
  const stack = [node];
  for (let n = stack.pop(); n; n = stack.pop()) {
    out.push(n);
    const children = [...n.children.values()];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as RuleNode);
  }
  return out;
}

/** Splits a rule head into the constant node path and the dynamic rest. */
export function splitHead(pkg: string[], rule: Rule): { path: string[]; dynamic: Term[] } {
  const path = [...pkg];
  const ref = rule.ref;
  let i = 0;
  for (; i < ref.length; i++) {
    const t = ref[i] as Term;
    if (t.type !== "scalar" || typeof t.value !== "string") break;
    // The last key of a contains-rule or function is its name; of a single-value rule, too.
    path.push(t.value);
  }
  return { path, dynamic: ref.slice(i) };
}
