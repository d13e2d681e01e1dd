import type { Node, Tree } from "./go-template-ast.js";
import { Executor } from "./go-template-exec.js";
import { isFunction } from "./go-template-funcs.js";
import { parseTree } from "./go-template-parse.js";
import { DEFAULT_TEMPLATE_LIMITS, TemplateBudget, type TemplateLimits } from "./template-budget.js";

/**
 * Go's text/template as Ollama uses it (lexer, parser, executor and functions live in the
 * `go-template-*` files). Parsing and rendering are bounded by `TemplateLimits` (steps,
 * text, nesting): past one, a 400 naming the limit. Syntax errors and execution errors
 * name the template's line (`template: :3: ...`).
 */

/** Values a template reads: Go values (see go-value.ts) or plain objects as maps. */
export type TemplateData = { [key: string]: unknown };

/** A template after parsing, ready to render any number of times. */
export type ParsedGoTemplate = Tree;

/** Parses a Go template; throws a template error (or a limit error) when it is invalid. */
export function parseGoTemplate(
  source: string,
  limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
): ParsedGoTemplate {
  // Parsing has its own steps, one per token: a tenth of the limit (real templates use hundreds).
  const budget = new TemplateBudget({ ...limits, maxSteps: Math.ceil(limits.maxSteps / 10) });
  return parseTree(source, budget, isFunction);
}

/** Renders `nodes` (default: the template's body) of a parsed template against `data`. */
export function executeGoTemplate(
  tree: ParsedGoTemplate,
  data: unknown,
  limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
  nodes: readonly Node[] = tree.root,
): string {
  const out: string[] = [];
  new Executor(tree, new TemplateBudget(limits), out).run(nodes, data);
  return out.join("");
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
