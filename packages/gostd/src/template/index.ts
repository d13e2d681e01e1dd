/** Go's text/template: parse tree, parser, executor, builtin functions and options. */
export type { Arg, Branch, Command, Node, Pipe, Tree } from "./ast.js";
export { type TemplateBudget, UNBOUNDED } from "./budget.js";
export { FuncError, TemplateError } from "./errors.js";
export { BUILTINS, fixed, stringArgs, type TemplateFunc } from "./funcs.js";
export {
  executeTemplate,
  type ParsedTemplate,
  parseTemplate,
  type TemplateOptions,
} from "./template.js";
