import { LlmsrvError } from "../errors.js";
import { evaluateExpr, type Scope, truthy, Vars } from "./go-template-eval.js";
import { type Action, type Expr, parseAction } from "./go-template-expr.js";

/**
 * An interpreter for the part of Go's text/template that Modelfile TEMPLATEs use:
 * `{{ .Field }}`, variables (`$`, `$x := …`, `$x.Field`), `if`/`else if`/`else`/`end`,
 * `range` (with `$i, $e :=`), `with`, function calls (`eq ne lt le gt ge and or not len
 * index slice json print`), parentheses, pipes, `{{- -}}` trimming and comments.
 * Anything else is a template error (HTTP 500, as in Ollama).
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

type Token = { kind: "text"; text: string } | { kind: "action"; action: Action };

function templateError(detail: string): LlmsrvError {
  return new LlmsrvError("internal", `template: ${detail}`);
}

function lex(src: string): Token[] {
  const tokens: Token[] = [];
  const re = /\{\{(-?)\s*([\s\S]*?)\s*(-?)\}\}/g;
  let last = 0;
  let trimNext = false;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    let text = src.slice(last, m.index);
    if (trimNext) text = text.replace(/^\s+/, "");
    if (m[1] === "-") text = text.replace(/\s+$/, "");
    if (text) tokens.push({ kind: "text", text });
    const body = m[2] ?? "";
    if (!body.startsWith("/*")) tokens.push({ kind: "action", action: parseAction(body) });
    trimNext = m[3] === "-";
    last = re.lastIndex;
  }
  let tail = src.slice(last);
  if (trimNext) tail = tail.replace(/^\s+/, "");
  if (tail) tokens.push({ kind: "text", text: tail });
  return tokens;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  /** Parses nodes until one of the `stop` keywords (left unconsumed) or the end. */
  nodes(stop: ReadonlyArray<Action["kind"]>): Node[] {
    const out: Node[] = [];
    while (this.i < this.tokens.length) {
      const t = this.tokens[this.i] as Token;
      if (t.kind === "text") {
        out.push(t);
        this.i++;
        continue;
      }
      const a = t.action;
      if (stop.includes(a.kind)) return out;
      this.i++;
      out.push(this.node(a));
    }
    if (stop.length > 0) throw templateError("missing {{ end }}");
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

function render(nodes: Node[], scope: Scope, evaluate: (e: Expr, s: Scope) => unknown): string {
  let out = "";
  for (const n of nodes) {
    switch (n.kind) {
      case "text":
        out += n.text;
        break;
      case "output":
        out += show(evaluate(n.expr, scope));
        break;
      case "assign":
        if (n.declare) scope.vars.declare(n.name, evaluate(n.expr, scope));
        else scope.vars.assign(n.name, evaluate(n.expr, scope));
        break;
      case "if": {
        const branch = n.branches.find(
          (b) => b.cond === undefined || truthy(evaluate(b.cond, scope)),
        );
        if (branch)
          out += render(branch.body, { dot: scope.dot, vars: scope.vars.child() }, evaluate);
        break;
      }
      case "with": {
        const v = evaluate(n.expr, scope);
        const vars = scope.vars.child();
        out += truthy(v)
          ? render(n.body, { dot: v, vars }, evaluate)
          : render(n.otherwise, { dot: scope.dot, vars }, evaluate);
        break;
      }
      case "range":
        out += renderRange(n, scope, evaluate);
        break;
    }
  }
  return out;
}

function renderRange(
  n: Extract<Node, { kind: "range" }>,
  scope: Scope,
  evaluate: (e: Expr, s: Scope) => unknown,
): string {
  const v = evaluate(n.expr, scope);
  const entries: Array<[unknown, unknown]> = Array.isArray(v)
    ? v.map((item, i) => [i, item])
    : typeof v === "object" && v !== null
      ? Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))
      : typeof v === "number"
        ? Array.from({ length: v }, (_, i) => [i, i])
        : [];
  if (entries.length === 0) return render(n.otherwise, scope, evaluate);
  let out = "";
  for (const [key, item] of entries) {
    const vars = scope.vars.child();
    if (n.keyVar && n.valueVar) {
      vars.declare(n.keyVar, key);
      vars.declare(n.valueVar, item);
    } else if (n.valueVar) vars.declare(n.valueVar, item);
    out += render(n.body, { dot: item, vars }, evaluate);
  }
  return out;
}

/** Parses and renders a Go-style template against `data`. */
export function renderGoTemplate(source: string, data: TemplateData): string {
  const nodes = new Parser(lex(source)).nodes([]);
  const vars = new Vars();
  vars.declare("$", data);
  return render(nodes, { dot: data, vars }, evaluateExpr);
}

/** True when the template iterates messages itself (so chat can hand it the history). */
export function templateUsesMessages(source: string): boolean {
  return /\.Messages\b/.test(source);
}
