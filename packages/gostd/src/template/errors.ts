/** Errors of template parsing, execution and template functions, worded as Go's. */

/**
 * A template that does not parse or fails while executing. `message` is Go's whole text
 * (`template: NAME:LINE: detail`); `line` and `detail` are its parts.
 */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(message);
    this.name = "TemplateError";
  }
}

/** A syntax error at `line`; the parser's entry point adds the template's name. */
export function syntaxError(line: number, detail: string): TemplateError {
  return new TemplateError(`template: :${line}: ${detail}`, line, detail);
}

/** The same syntax error, naming the template as Go does (`template: NAME:LINE: ...`). */
export function namedSyntaxError(e: TemplateError, name: string): TemplateError {
  return new TemplateError(`template: ${name}:${e.line}: ${e.detail}`, e.line, e.detail);
}

/** A function's failure, in Go's words (the evaluator adds `error calling X:`). */
export class FuncError extends Error {}
