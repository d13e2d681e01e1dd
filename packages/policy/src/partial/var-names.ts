/**
 * Names in partial evaluation results: the query's own vars keep theirs; vars of inlined
 * rules and the compiler's generated vars (whose internal names are not Rego) become
 * `__localN__`, numbered in order of appearance, as OPA names its generated locals.
 */
import type { Body, Expr, Rule, Term } from "../ast/nodes.js";
import { mapBody, mapTerm, varTerm } from "./terms.js";
import { exprSome } from "./traversal.js";

/** True when the name is one a user may write (not renamed by the compiler or by us). */
function userName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.startsWith("__local");
}

export class VarNamer {
  private readonly names = new Map<string, string>();
  private next = 0;

  /** `fixed`: names given in advance (the query's vars, by their compiled names). */
  constructor(fixed: ReadonlyMap<string, string> = new Map()) {
    for (const [from, to] of fixed) this.names.set(from, to);
  }

  private rename = (name: string): Term | undefined => {
    let out = this.names.get(name);
    if (out === undefined && userName(name)) return undefined;
    if (!out) {
      out = `__local${this.next++}__`;
      this.names.set(name, out);
    }
    return varTerm(out);
  };

  /** Visits vars in order so that numbering follows the text. */
  private visit(e: Expr): void {
    exprSome(e, (t) => {
      if (t.type === "var") this.rename(t.name);
      return false;
    });
  }

  body(body: Body): Body {
    for (const e of body) this.visit(e);
    return mapBody(body, this.rename);
  }

  term(t: Term): Term {
    return mapTerm(t, this.rename);
  }

  rule(r: Rule): Rule {
    return {
      ...r,
      ref: r.ref.map((t) => this.term(t)),
      args: r.args?.map((t) => this.term(t)),
      key: r.key && this.term(r.key),
      value: r.value && this.term(r.value),
      body: this.body(r.body),
      elseRule: r.elseRule && this.rule(r.elseRule),
    };
  }
}
