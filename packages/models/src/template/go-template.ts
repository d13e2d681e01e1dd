/** Go's text/template (@quintet/gostd) as Ollama runs it: its functions, limits, errors, tree walks. */
import { goJson } from "@quintet/gostd/json";
import {
  type Arg,
  executeTemplate,
  fixed,
  type Node,
  type ParsedTemplate,
  type Pipe,
  parseTemplate,
  stringArgs,
  TemplateError,
  type TemplateFunc,
  type TemplateOptions,
} from "@quintet/gostd/template";
import { LlmsrvError } from "../errors.js";
import { toTypeScriptType } from "./ollama-types.js";
import { DEFAULT_TEMPLATE_LIMITS, TemplateBudget, type TemplateLimits } from "./template-budget.js";

/**
 * Ollama's templates have no name, print a missing value as `<no value>` and name only the
 * line in errors. Parsing and rendering are bounded by `TemplateLimits` (steps, text,
 * nesting): past one, a 400 naming the limit. A template's own errors are 500s (the
 * template, not the input, is wrong).
 */

/** Values a template reads: Go values (see @quintet/gostd/fmt) or plain objects as maps. */
export type TemplateData = { [key: string]: unknown };

/** A template after parsing, ready to render any number of times. */
export type ParsedGoTemplate = ParsedTemplate;

/** A date as Go's `time.Now().Format("2006-01-02")` writes it, in local time. */
function isoDate(daysBack: number): string {
  const d = new Date();
  d.setDate(d.getDate() - daysBack);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Ollama's date functions take optional string arguments (a format, ignored). */
function dateFunc(daysBack: number): TemplateFunc {
  return (args) => {
    stringArgs(args);
    return isoDate(daysBack);
  };
}

/** Ollama's `json`: json.Marshal with its error ignored (an unencodable value gives ""). */
function json(args: unknown[]): string {
  try {
    return goJson(args[0]);
  } catch {
    return "";
  }
}

/** Ollama's template functions, beside Go's builtins. */
const OLLAMA_FUNCTIONS: ReadonlyMap<string, TemplateFunc> = new Map<string, TemplateFunc>([
  ["json", fixed("json", 1, json)],
  ["currentDate", dateFunc(0)],
  ["yesterdayDate", dateFunc(1)],
  ["toTypeScriptType", fixed("toTypeScriptType", 1, (a) => toTypeScriptType(a[0]))],
]);

const OLLAMA_OPTIONS: TemplateOptions = {
  functions: OLLAMA_FUNCTIONS,
  errorContext: false,
  missingEndHint: true,
};

/** Runs `fn`, turning a template's own error into a 500 with Go's text. */
function asServerError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TemplateError) throw new LlmsrvError("internal", e.message);
    throw e;
  }
}

/** Parses a Go template; throws a template error (or a limit error) when it is invalid. */
export function parseGoTemplate(
  source: string,
  limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
): ParsedGoTemplate {
  // Parsing has its own steps, one per token: a tenth of the limit (real templates use hundreds).
  const budget = new TemplateBudget({ ...limits, maxSteps: Math.ceil(limits.maxSteps / 10) });
  return asServerError(() => parseTemplate(source, OLLAMA_OPTIONS, budget));
}

/** Renders `nodes` (default: the template's body) of a parsed template against `data`. */
export function executeGoTemplate(
  tree: ParsedGoTemplate,
  data: unknown,
  limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
  nodes: readonly Node[] = tree.root,
): string {
  const budget = new TemplateBudget(limits);
  return asServerError(() => executeTemplate(tree, data, OLLAMA_OPTIONS, budget, nodes));
}

/** Parses (unless given a parsed template) and renders a Go template against `data`. */
export function renderGoTemplate(
  source: string | ParsedGoTemplate,
  data: TemplateData,
  limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
): string {
  const tree = typeof source === "string" ? parseGoTemplate(source, limits) : source;
  return executeGoTemplate(tree, data, limits);
}

/** Field and variable names used in `nodes` (Ollama's `Identifiers`), lower-cased, sorted. */
export function identifiers(nodes: readonly Node[]): string[] {
  const names = new Set<string>();
  const pipe = (p: Pipe | undefined) => {
    for (const c of p?.cmds ?? []) for (const a of c.args) arg(a);
  };
  const arg = (a: Arg) => {
    if (a.t === "field" || a.t === "variable") for (const i of a.ident) names.add(i.toLowerCase());
    else if (a.t === "pipe") pipe(a.pipe);
  };
  const walk = (list: readonly Node[]) => {
    for (const n of list) {
      if (n.t === "action" || n.t === "template") pipe(n.pipe);
      else if (n.t === "if" || n.t === "with" || n.t === "range") {
        pipe(n.pipe);
        walk(n.list);
        if (n.elseList) walk(n.elseList);
      }
    }
  };
  walk(nodes);
  return [...names].sort();
}

/**
 * Ollama's cut for the last turn of a generation: the first action printing a field
 * named `Response` is kept and every node after it (at any depth) is dropped, so the
 * prompt ends where the model's answer begins.
 */
export function cutAfterResponse(nodes: readonly Node[]): Node[] {
  let cut = false;
  const pipeHasResponse = (p: Pipe) =>
    p.cmds.some((c) => c.args.some((a) => a.t === "field" && a.ident.includes("Response")));
  const walk = (list: readonly Node[]): Node[] => {
    const out: Node[] = [];
    for (const n of list) {
      if (cut) break;
      if (n.t === "action") {
        if (pipeHasResponse(n.pipe)) cut = true;
        out.push(n);
      } else if (n.t === "if" || n.t === "with" || n.t === "range") {
        const body = walk(n.list);
        const elseList = n.elseList && !cut ? walk(n.elseList) : undefined;
        out.push({ ...n, list: body, elseList });
      } else out.push(n);
    }
    return out;
  };
  return walk(nodes);
}

/** The action `{{ .Response }}`, which Ollama appends to templates that use neither it nor `.Messages`. */
export const RESPONSE_ACTION: Node = Object.freeze({
  t: "action",
  line: 0,
  pipe: {
    line: 0,
    pos: 0,
    decl: [],
    isAssign: false,
    cmds: [{ args: [{ t: "field", ident: ["Response"] }], text: ".Response" }],
  },
}) as Node;
