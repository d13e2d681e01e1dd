import { LlmsrvError } from "../errors.js";
import type { TemplateBudget } from "./template-budget.js";

/** An expression inside `{{ }}`. */
export type Expr =
  | { kind: "dot" }
  | { kind: "field"; base: Expr; path: string[] }
  | { kind: "var"; name: string }
  | { kind: "literal"; value: unknown }
  | { kind: "call"; fn: string; args: Expr[] };

/** What one `{{ }}` says. */
export type Action =
  | { kind: "expr"; expr: Expr }
  | { kind: "assign"; name: string; expr: Expr; declare: boolean }
  | { kind: "if"; expr: Expr }
  | { kind: "elseif"; expr: Expr }
  | { kind: "else" }
  | { kind: "end" }
  | { kind: "with"; expr: Expr }
  | { kind: "range"; expr: Expr; keyVar?: string; valueVar?: string };

type Tok =
  | { t: "lit"; value: unknown }
  | { t: "field"; path: string[] }
  | { t: "var"; name: string; path: string[] }
  | { t: "ident"; name: string }
  | { t: "punct"; value: "(" | ")" | "|" | ":=" | "=" | "," };

/** A short excerpt of template text for error messages (the source may be megabytes). */
export function excerpt(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function fail(detail: string): never {
  throw new LlmsrvError("internal", `template: ${detail}`);
}

const TOKEN =
  /\s*(?:("(?:[^"\\]|\\.)*")|`([^`]*)`|(-?\d+(?:\.\d+)?)|(\$[A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)|((?:\.[A-Za-z_][A-Za-z0-9_]*)+|\.)|([A-Za-z_][A-Za-z0-9_]*)|(:=|[()|=,]))/y;

/** White space up to the end, tried at one position (sticky: no copy of the rest). */
const TRAILING_SPACE = /\s*$/y;

function tokenize(text: string, budget: TemplateBudget): Tok[] {
  const out: Tok[] = [];
  let pos = 0;
  while (pos < text.length) {
    budget.step();
    TRAILING_SPACE.lastIndex = pos;
    if (TRAILING_SPACE.test(text)) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(text);
    if (!m) fail(`cannot read "${excerpt(text.slice(pos, pos + 41))}"`);
    pos = TOKEN.lastIndex;
    const [, str, raw, num, varName, varPath, field, ident, punct] = m;
    if (str !== undefined) out.push({ t: "lit", value: JSON.parse(str) });
    else if (raw !== undefined) out.push({ t: "lit", value: raw });
    else if (num !== undefined) out.push({ t: "lit", value: Number(num) });
    else if (varName !== undefined)
      out.push({ t: "var", name: varName, path: splitPath(varPath ?? "") });
    else if (field !== undefined)
      out.push({ t: "field", path: splitPath(field === "." ? "" : field) });
    else if (ident !== undefined) {
      if (ident === "true" || ident === "false") out.push({ t: "lit", value: ident === "true" });
      else if (ident === "nil") out.push({ t: "lit", value: null });
      else out.push({ t: "ident", name: ident });
    } else out.push({ t: "punct", value: punct as "(" });
  }
  return out;
}

function splitPath(p: string): string[] {
  return p.split(".").filter((s) => s !== "");
}

class ExprParser {
  private i = 0;
  constructor(
    private readonly toks: Tok[],
    private readonly budget: TemplateBudget,
  ) {}

  get done(): boolean {
    return this.i >= this.toks.length;
  }

  private peek(): Tok | undefined {
    return this.toks[this.i];
  }

  /** command ('|' command)*: a piped value becomes the next call's last argument. */
  pipeline(): Expr {
    let expr = this.command();
    while (this.peek()?.t === "punct" && (this.peek() as { value: string }).value === "|") {
      this.i++;
      const next = this.command();
      if (next.kind !== "call") fail("a pipe must feed a function");
      expr = { kind: "call", fn: next.fn, args: [...next.args, expr] };
    }
    return expr;
  }

  private command(): Expr {
    const first = this.peek();
    if (first?.t === "ident") {
      this.i++;
      const args: Expr[] = [];
      while (!this.done && !this.atStop()) args.push(this.operand());
      return { kind: "call", fn: first.name, args };
    }
    const operand = this.operand();
    if (!this.done && !this.atStop()) fail("unexpected operand after a value");
    return operand;
  }

  private atStop(): boolean {
    const t = this.peek();
    return t?.t === "punct" && (t.value === ")" || t.value === "|");
  }

  private operand(): Expr {
    const t = this.toks[this.i++];
    if (!t) fail("missing operand");
    switch (t.t) {
      case "lit":
        return { kind: "literal", value: t.value };
      case "field":
        return t.path.length === 0
          ? { kind: "dot" }
          : { kind: "field", base: { kind: "dot" }, path: t.path };
      case "var": {
        const v: Expr = { kind: "var", name: t.name };
        return t.path.length === 0 ? v : { kind: "field", base: v, path: t.path };
      }
      case "ident":
        return { kind: "call", fn: t.name, args: [] };
      case "punct": {
        if (t.value !== "(") fail(`unexpected "${t.value}"`);
        this.budget.enter();
        const inner = this.pipeline();
        this.budget.leave();
        const close = this.toks[this.i++];
        if (close?.t !== "punct" || close.value !== ")") fail("missing )");
        return inner;
      }
    }
  }
}

function expression(text: string, budget: TemplateBudget): Expr {
  const p = new ExprParser(tokenize(text, budget), budget);
  const e = p.pipeline();
  if (!p.done) fail(`unexpected text in "${excerpt(text)}"`);
  return e;
}

const RANGE_VARS = /^(\$[A-Za-z0-9_]*)\s*(?:,\s*(\$[A-Za-z0-9_]*)\s*)?:=\s*([\s\S]+)$/;
const ASSIGN = /^(\$[A-Za-z0-9_]*)\s*(:=|=)\s*([\s\S]+)$/;

/** Parses the inside of one `{{ }}` (already stripped of delimiters and trim markers). */
export function parseAction(text: string, budget: TemplateBudget): Action {
  const word = /^[a-z]+/.exec(text)?.[0] ?? "";
  const rest = text.slice(word.length).trim();
  switch (word) {
    case "if":
      return { kind: "if", expr: expression(rest, budget) };
    case "else":
      if (rest === "") return { kind: "else" };
      if (rest.startsWith("if "))
        return { kind: "elseif", expr: expression(rest.slice(3), budget) };
      return fail(`unsupported "else ${rest}"`);
    case "end":
      return { kind: "end" };
    case "with":
      return { kind: "with", expr: expression(rest, budget) };
    case "range": {
      const m = RANGE_VARS.exec(rest);
      if (!m) return { kind: "range", expr: expression(rest, budget) };
      return m[2]
        ? { kind: "range", keyVar: m[1], valueVar: m[2], expr: expression(m[3] as string, budget) }
        : { kind: "range", valueVar: m[1], expr: expression(m[3] as string, budget) };
    }
    case "define":
    case "template":
    case "block":
    case "break":
    case "continue":
      return fail(`{{ ${word} }} is not supported`);
  }
  const assign = ASSIGN.exec(text);
  if (assign)
    return {
      kind: "assign",
      name: assign[1] as string,
      declare: assign[2] === ":=",
      expr: expression(assign[3] as string, budget),
    };
  return { kind: "expr", expr: expression(text, budget) };
}
