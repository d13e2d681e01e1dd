/** Go's text/template: parse once, render any number of times, with a caller's options. */
import type { Node, Tree } from "./ast.js";
import { type TemplateBudget, UNBOUNDED } from "./budget.js";
import { namedSyntaxError, TemplateError } from "./errors.js";
import { Executor } from "./exec.js";
import { BUILTINS, SPECIAL_FUNCTIONS, type TemplateFunc } from "./funcs.js";
import { parseTree } from "./parse.js";

/** What differs between the templates' users; every field defaults to Go's own behaviour. */
export interface TemplateOptions {
  /** The template's name in errors (`template: NAME:3: ...`); Ollama's templates have none. */
  name?: string;
  /** Functions beside Go's builtins (a name here replaces a builtin's). */
  functions?: ReadonlyMap<string, TemplateFunc>;
  /** What an action printing a missing value writes: Go's `<no value>` unless told. */
  noValue?: string;
  /**
   * Execution errors with Go's column and node (`NAME:1:2: executing "NAME" at <.a>: ...`),
   * the default; false gives the shorter `NAME:1: executing "NAME": ...`.
   */
  errorContext?: boolean;
  /**
   * The data holds its values in interfaces (JSON decoded into map[string]any), so a field
   * of a non-map names `interface {}` as its type, as Go does for such data.
   */
  interfaceValues?: boolean;
  /** Adds which `{{ end }}` is missing to "unexpected EOF". */
  missingEndHint?: boolean;
}

/** A template after parsing. */
export type ParsedTemplate = Tree;

function functionsOf(options: TemplateOptions): ReadonlyMap<string, TemplateFunc> {
  return options.functions ? new Map([...BUILTINS, ...options.functions]) : BUILTINS;
}

/** Parses a template; throws a TemplateError when it is invalid (or what the budget throws). */
export function parseTemplate(
  source: string,
  options: TemplateOptions = {},
  budget: TemplateBudget = UNBOUNDED,
): ParsedTemplate {
  const functions = functionsOf(options);
  const isFunction = (name: string) => functions.has(name) || SPECIAL_FUNCTIONS.has(name);
  try {
    return parseTree(source, budget, isFunction, options.missingEndHint);
  } catch (e) {
    throw e instanceof TemplateError && options.name ? namedSyntaxError(e, options.name) : e;
  }
}

/** Renders `nodes` (default: the template's body) against `data`. */
export function executeTemplate(
  tree: ParsedTemplate,
  data: unknown,
  options: TemplateOptions = {},
  budget: TemplateBudget = UNBOUNDED,
  nodes: readonly Node[] = tree.root,
): string {
  const out: string[] = [];
  const settings = {
    name: options.name ?? "",
    noValue: options.noValue ?? "<no value>",
    errorContext: options.errorContext ?? true,
    interfaceValues: options.interfaceValues ?? false,
    functions: functionsOf(options),
  };
  new Executor(tree, budget, out, settings).run(nodes, data);
  return out.join("");
}
