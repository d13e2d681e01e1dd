import { LlmsrvError } from "../errors.js";

/**
 * Bounds on one template rendering, so that no template (a Modelfile TEMPLATE, a request's
 * `template`, a GGUF chat template) can hold the server: a looping template stops at the
 * step limit, a template that builds huge strings stops at the text limit, and recursion
 * (Jinja macros) or deep nesting stops at the depth limit.
 */
export interface TemplateLimits {
  /** Evaluation steps: template nodes, expressions and loop iterations. */
  readonly maxSteps: number;
  /** Characters written to the output plus characters of strings built by functions, filters and operators. */
  readonly maxTextChars: number;
  /** Nesting of blocks and expressions (and macro calls) in the template. */
  readonly maxDepth: number;
}

/**
 * Limits of Go templates: generous enough for any real template over any conversation a
 * request can carry (about 20 steps per message; a prompt is written a few times at most),
 * small enough that a render stays well under a second.
 */
export const DEFAULT_TEMPLATE_LIMITS: TemplateLimits = Object.freeze({
  maxSteps: 1_000_000,
  maxTextChars: 32 * 1024 * 1024,
  maxDepth: 500,
});

/** Limits of Jinja chat templates: a step of the Jinja interpreter costs about four Go steps. */
export const JINJA_TEMPLATE_LIMITS: TemplateLimits = Object.freeze({
  ...DEFAULT_TEMPLATE_LIMITS,
  maxSteps: 250_000,
});

/** A template hit one of its limits: the template or the input is the problem, so 400. */
export class TemplateLimitError extends LlmsrvError {
  constructor(detail: string) {
    super("bad_request", `template: ${detail}`);
    this.name = "TemplateLimitError";
  }
}

/** Counts the work of one rendering against its limits; throws when one is passed. */
export class TemplateBudget {
  private steps = 0;
  private text = 0;
  private depth = 0;

  constructor(readonly limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS) {}

  /** One more step (a node, an expression, an iteration). */
  step(): void {
    if (++this.steps > this.limits.maxSteps) this.tooManySteps();
  }

  /** `count` more steps at once (a list about to be built for that many iterations). */
  reserve(count: number): void {
    this.steps += count;
    if (this.steps > this.limits.maxSteps) this.tooManySteps();
  }

  private tooManySteps(): never {
    throw new TemplateLimitError(
      `more than ${this.limits.maxSteps} steps (the template is too long, or loops too much for this input)`,
    );
  }

  /** `chars` more characters written or built. */
  addText(chars: number): void {
    this.text += chars;
    if (this.text > this.limits.maxTextChars)
      throw new TemplateLimitError(
        `rendering produced more than ${this.limits.maxTextChars} characters of text`,
      );
  }

  /** Enters one level of nesting; `leave` must follow. */
  enter(): void {
    if (++this.depth > this.limits.maxDepth)
      throw new TemplateLimitError(`nesting deeper than ${this.limits.maxDepth} levels`);
  }

  leave(): void {
    this.depth--;
  }
}
