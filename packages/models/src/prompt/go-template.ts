import { LlmsrvError } from "../errors.js";

/**
 * A small interpreter for the subset of Go's text/template that Modelfile TEMPLATEs use:
 * `{{ .Field }}`, `{{ if .X }}…{{ else if .Y }}…{{ else }}…{{ end }}`,
 * `{{ range .Messages }}…{{ end }}` (fields of the element inside), `{{- -}}` trimming,
 * and `{{/* comments *\/}}`. Anything else is a template error (HTTP 500, as Ollama).
 */

type Node =
  | { kind: "text"; text: string }
  | { kind: "field"; path: string[] }
  | { kind: "if"; branches: Array<{ cond: string[] | undefined; body: Node[] }> }
  | { kind: "range"; path: string[]; body: Node[] };

/** Values a template reads: strings, booleans, arrays of records, nested records. */
export type TemplateData = { [key: string]: unknown };

interface Token {
  kind: "text" | "action";
  text: string;
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
    if (!(m[2] ?? "").startsWith("/*")) tokens.push({ kind: "action", text: m[2] ?? "" });
    trimNext = m[3] === "-";
    last = re.lastIndex;
  }
  let tail = src.slice(last);
  if (trimNext) tail = tail.replace(/^\s+/, "");
  if (tail) tokens.push({ kind: "text", text: tail });
  return tokens;
}

function fieldPath(expr: string): string[] {
  const e = expr.trim();
  if (e === ".") return [];
  if (!/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(e))
    throw templateError(`unsupported expression "${expr}"`);
  return e.slice(1).split(".");
}

function templateError(detail: string): LlmsrvError {
  return new LlmsrvError("internal", `template: ${detail}`);
}

function parse(tokens: Token[], pos: { i: number }, stopAt: string[]): Node[] {
  const nodes: Node[] = [];
  while (pos.i < tokens.length) {
    const t = tokens[pos.i] as Token;
    if (t.kind === "text") {
      nodes.push({ kind: "text", text: t.text });
      pos.i++;
      continue;
    }
    const word = t.text.split(/\s+/)[0] ?? "";
    if (stopAt.includes(word)) return nodes;
    pos.i++;
    if (word === "if") nodes.push(parseIf(tokens, pos, t.text.slice(2)));
    else if (word === "range") {
      const body = parse(tokens, pos, ["end"]);
      expectEnd(tokens, pos);
      nodes.push({ kind: "range", path: fieldPath(t.text.slice(5)), body });
    } else nodes.push({ kind: "field", path: fieldPath(t.text) });
  }
  if (stopAt.length > 0) throw templateError(`missing {{ end }}`);
  return nodes;
}

function parseIf(tokens: Token[], pos: { i: number }, firstCond: string): Node {
  const branches: Array<{ cond: string[] | undefined; body: Node[] }> = [];
  let cond: string[] | undefined = fieldPath(firstCond);
  for (;;) {
    const body = parse(tokens, pos, ["else", "end"]);
    branches.push({ cond, body });
    const t = tokens[pos.i];
    if (!t) throw templateError("missing {{ end }}");
    pos.i++;
    if (t.text === "end") return { kind: "if", branches };
    const rest = t.text.slice(4).trim();
    cond = rest.startsWith("if ") ? fieldPath(rest.slice(3)) : undefined;
  }
}

function expectEnd(tokens: Token[], pos: { i: number }): void {
  if (tokens[pos.i]?.text !== "end") throw templateError("missing {{ end }}");
  pos.i++;
}

function lookup(data: unknown, path: string[]): unknown {
  let v = data;
  for (const key of path)
    v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return v !== undefined && v !== null && v !== false && v !== "" && v !== 0;
}

function render(nodes: Node[], data: unknown): string {
  let out = "";
  for (const n of nodes) {
    if (n.kind === "text") out += n.text;
    else if (n.kind === "field") {
      const v = lookup(data, n.path);
      out += v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v);
    } else if (n.kind === "if") {
      const branch = n.branches.find((b) => b.cond === undefined || truthy(lookup(data, b.cond)));
      if (branch) out += render(branch.body, data);
    } else {
      const items = lookup(data, n.path);
      if (Array.isArray(items)) for (const item of items) out += render(n.body, item);
    }
  }
  return out;
}

/** Parses and renders a Go-style template against `data`. */
export function renderGoTemplate(source: string, data: TemplateData): string {
  const tokens = lex(source);
  const pos = { i: 0 };
  const nodes = parse(tokens, pos, []);
  return render(nodes, data);
}

/** True when the template iterates messages itself (so chat can hand it the history). */
export function templateUsesMessages(source: string): boolean {
  return /\.Messages\b/.test(source);
}
