import { LlmsrvError } from "../errors.js";
import { evaluateExpr, type Scope, truthy, Vars } from "./go-template-eval.js";
import type { Action, Expr } from "./go-template-expr.js";
import { lex, type Token } from "./go-template-lex.js";
import { DEFAULT_TEMPLATE_LIMITS, TemplateBudget, type TemplateLimits } from "./template-budget.js";

/**
 * An interpreter for the part of Go's text/template that Modelfile TEMPLATEs use:
 * `{{ .Field }}`, variables (`$`, `$x := …`, `$x.Field`), `if`/`else if`/`else`/`end`,
 * `range` (with `$i, $e :=`), `with`, function calls (`eq ne lt le gt ge and or not len
 * index slice json print`), parentheses, pipes, `{{- -}}` trimming and comments.
 * Anything else is a template error (HTTP 500, as in Ollama). Rendering is bounded by
 * `TemplateLimits` (steps, text, nesting): past one, a 400 naming the limit.
 */

type Node =
  | { kind: "text"; text: string }
  | { kind: "output"; expr: Expr }
  | { kind: "assign"; name: string; expr: Expr; declare: boolean }
  | { kind: "if"; branches: Array<{ cond: Expr | undefined; body: Node[] }> }
  | { kind: "with"; expr: Expr; body: Node[]; otherwise: Node[] }
  | {
      kind: "range";
      expr: Expr;
      keyVar?: string;
      valueVar?: string;
      body: Node[];
      otherwise: Node[];
    };

/** Values a template reads: strings, numbers, booleans, arrays and records. */
export type TemplateData = { [key: string]: unknown };

function templateError(detail: string): LlmsrvError {
  return new LlmsrvError("internal", `template: ${detail}`);
}

class Parser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly budget: TemplateBudget,
  ) {}

  /** Parses nodes until one of the `stop` keywords (left unconsumed) or the end. */
  nodes(stop: ReadonlyArray<Action["kind"]>): Node[] {
    this.budget.enter();
    const out: Node[] = [];
    while (this.i < this.tokens.length) {
      const t = this.tokens[this.i] as Token;
      if (t.kind === "text") {
        out.push(t);
        this.i++;
        continue;
      }
      const a = t.action;
      if (stop.includes(a.kind)) break;
      this.i++;
      out.push(this.node(a));
    }
    if (this.i >= this.tokens.length && stop.length > 0) throw templateError("missing {{ end }}");
    this.budget.leave();
    return out;
  }

  private node(a: Action): Node {
    switch (a.kind) {
      case "expr":
        return { kind: "output", expr: a.expr };
      case "assign":
        return { kind: "assign", name: a.name, expr: a.expr, declare: a.declare };
      case "if":
        return this.ifNode(a.expr);
      case "with": {
        const body = this.nodes(["else", "end"]);
        const otherwise = this.elseBody();
        return { kind: "with", expr: a.expr, body, otherwise };
      }
      case "range": {
        const body = this.nodes(["else", "end"]);
        const otherwise = this.elseBody();
        return {
          kind: "range",
          expr: a.expr,
          keyVar: a.keyVar,
          valueVar: a.valueVar,
          body,
          otherwise,
        };
      }
      default:
        throw templateError(`unexpected {{ ${a.kind} }}`);
    }
  }

  private ifNode(first: Expr): Node {
    const branches: Array<{ cond: Expr | undefined; body: Node[] }> = [];
    let cond: Expr | undefined = first;
    for (;;) {
      branches.push({ cond, body: this.nodes(["else", "elseif", "end"]) });
      const t = this.tokens[this.i++];
      if (t?.kind !== "action") throw templateError("missing {{ end }}");
      if (t.action.kind === "end") return { kind: "if", branches };
      if (cond === undefined) throw templateError("{{ else }} after {{ else }}");
      cond = t.action.kind === "elseif" ? t.action.expr : undefined;
    }
  }

  /** After a body that stopped at else/end: the else body (or nothing), consuming end. */
  private elseBody(): Node[] {
    const t = this.tokens[this.i++];
    if (t?.kind !== "action") throw templateError("missing {{ end }}");
    if (t.action.kind === "end") return [];
    const otherwise = this.nodes(["end"]);
    this.i++;
    return otherwise;
  }
}

function show(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

/** Renders nodes into `out`, counting every node and every character against the budget. */
function render(nodes: Node[], scope: Scope, out: string[]): void {
  const budget = scope.budget;
  for (const n of nodes) {
    budget.step();
    switch (n.kind) {
      case "text":
        budget.addText(n.text.length);
        out.push(n.text);
        break;
      case "output": {
        const text = show(evaluateExpr(n.expr, scope));
        budget.addText(text.length);
        out.push(text);
        break;
      }
      case "assign":
        if (n.declare) scope.vars.declare(n.name, evaluateExpr(n.expr, scope));
        else scope.vars.assign(n.name, evaluateExpr(n.expr, scope));
        break;
      case "if": {
        const branch = n.branches.find(
          (b) => b.cond === undefined || truthy(evaluateExpr(b.cond, scope)),
        );
        if (branch) render(branch.body, { ...scope, vars: scope.vars.child() }, out);
        break;
      }
      case "with": {
        const v = evaluateExpr(n.expr, scope);
        const vars = scope.vars.child();
        if (truthy(v)) render(n.body, { dot: v, vars, budget }, out);
        else render(n.otherwise, { ...scope, vars }, out);
        break;
      }
      case "range":
        renderRange(n, scope, out);
        break;
    }
  }
}

/** The (key, item) pairs a range visits; a number n counts 0..n-1 without building a list. */
function* rangeEntries(v: unknown): Generator<[unknown, unknown]> {
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield [i, v[i]];
  else if (typeof v === "number") for (let i = 0; i < v; i++) yield [i, i];
  else if (typeof v === "object" && v !== null)
    yield* Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1));
}

function renderRange(n: Extract<Node, { kind: "range" }>, scope: Scope, out: string[]): void {
  let empty = true;
  for (const [key, item] of rangeEntries(evaluateExpr(n.expr, scope))) {
    empty = false;
    scope.budget.step();
    const vars = scope.vars.child();
    if (n.keyVar && n.valueVar) {
      vars.declare(n.keyVar, key);
      vars.declare(n.valueVar, item);
    } else if (n.valueVar) vars.declare(n.valueVar, item);
    render(n.body, { dot: item, vars, budget: scope.budget }, out);
  }
  if (empty) render(n.otherwise, scope, out);
}

/** Parses a Go-style template; throws a template error (or a limit error) when it is invalid. */
export function parseGoTemplate(
  source: string,
  limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
): ParsedGoTemplate {
  // Parsing has its own steps, one per token: a tenth of the limit (real templates use hundreds).
  const budget = new TemplateBudget({ ...limits, maxSteps: Math.ceil(limits.maxSteps / 10) });
  return new Parser(lex(source, budget), budget).nodes([]);
}

/** A template after parsing, ready to render any number of times. */
export type ParsedGoTemplate = Node[];

/** Parses and renders a Go-style template against `data`, within `limits`. */
export function renderGoTemplate(
  source: string | ParsedGoTemplate,
  data: TemplateData,
  limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
): string {
  const nodes = typeof source === "string" ? parseGoTemplate(source, limits) : source;
  const vars = new Vars();
  vars.declare("$", data);
  const out: string[] = [];
  render(nodes, { dot: data, vars, budget: new TemplateBudget(limits) }, out);
  return out.join("");
}

/** True when the template iterates messages itself (so chat can hand it the history). */
export function templateUsesMessages(source: string): boolean {
  return /\.Messages\b/.test(source);
}
