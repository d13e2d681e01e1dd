// Jinja rendering with bounds on output size and work, for untrusted chat templates.
import * as jinja from "@huggingface/jinja";
import { TemplateBudget, TemplateLimitError, type TemplateLimits } from "./template-budget.js";

// The package's declarations of its runtime classes do not resolve under NodeNext (extensionless
// relative imports), so the parts used here are described structurally.
type Statement = { type: string } | undefined;
type RuntimeValue = { type: string; value: unknown };
interface Environment {
  set(name: string, value: unknown): unknown;
}
interface InterpreterApi {
  evaluate(statement: Statement, environment: Environment): RuntimeValue;
  run(program: unknown): RuntimeValue;
}
const Interpreter = jinja.Interpreter as unknown as new (env: Environment) => InterpreterApi;
const Environment = jinja.Environment as unknown as new () => Environment;

/** Expressions that build a new string or list (the others pass existing values along). */
const BUILDERS: ReadonlySet<string> = new Set([
  "BinaryExpression",
  "CallExpression",
  "FilterExpression",
  "SliceExpression",
]);

/** Size of a string in characters, of a list at 8 characters an element (a pointer each). */
function sizeOf(value: RuntimeValue): number {
  const inner: unknown = value.value;
  if (typeof inner === "string") return inner.length;
  return Array.isArray(inner) ? 8 * inner.length : 0;
}

/**
 * The library's interpreter with every evaluation counted: one step each, one nesting level
 * while it runs (macro recursion included), the size of every string or list an operator,
 * call or filter builds, and no single value larger than the text limit.
 */
class BoundedInterpreter extends Interpreter {
  constructor(
    env: Environment,
    private readonly budget: TemplateBudget,
  ) {
    super(env);
  }

  override evaluate(statement: Statement, environment: Environment): RuntimeValue {
    this.budget.step();
    this.budget.enter();
    let value: RuntimeValue;
    try {
      value = super.evaluate(statement, environment);
    } finally {
      this.budget.leave();
    }
    const size = sizeOf(value);
    if (size > 0) {
      if (statement && BUILDERS.has(statement.type)) this.budget.addText(size);
      if (size > this.budget.limits.maxTextChars)
        throw new TemplateLimitError(
          `rendering produced more than ${this.budget.limits.maxTextChars} characters of text`,
        );
    }
    return value;
  }
}

/** Python's `range`, refusing more items than the steps left could ever visit. */
function boundedRange(budget: TemplateBudget) {
  return (start: number, stop?: number, step = 1): number[] => {
    const [from, to] = stop === undefined ? [0, start] : [start, stop];
    if (step === 0) throw new Error("range() step must not be zero");
    const count = Math.max(0, Math.ceil((to - from) / step));
    if (Number.isNaN(count)) throw new Error("range() arguments must be numbers");
    budget.reserve(count);
    return Array.from({ length: count }, (_, i) => from + i * step);
  };
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

/** `strftime_now(format)` for the codes chat templates use (%Y %m %d %b %B %H %M %%). */
function strftimeNow(format: string): string {
  const now = new Date();
  const month = (style: "long" | "short") => now.toLocaleString("en-US", { month: style });
  const codes: Record<string, () => string> = {
    Y: () => String(now.getFullYear()),
    m: () => pad2(now.getMonth() + 1),
    d: () => pad2(now.getDate()),
    b: () => month("short"),
    B: () => month("long"),
    H: () => pad2(now.getHours()),
    M: () => pad2(now.getMinutes()),
    "%": () => "%",
  };
  return format.replace(/%(.)/g, (token, code: string) => codes[code]?.() ?? token);
}

/** The globals the library's `Template.render` declares, with a bounded `range`. */
function globalEnvironment(budget: TemplateBudget): Environment {
  const env = new Environment();
  const globals: Record<string, unknown> = {
    false: false,
    true: true,
    none: null,
    False: false,
    True: true,
    None: null,
    raise_exception: (message: string) => {
      throw new Error(message);
    },
    range: boundedRange(budget),
    strftime_now: strftimeNow,
  };
  for (const [name, value] of Object.entries(globals)) env.set(name, value);
  return env;
}

/** Renders a parsed Jinja template with `items`, within `limits`. */
export function renderBounded(
  template: jinja.Template,
  items: Record<string, unknown>,
  limits: TemplateLimits,
): string {
  const budget = new TemplateBudget(limits);
  const env = globalEnvironment(budget);
  for (const [name, value] of Object.entries(items)) env.set(name, value);
  const result = new BoundedInterpreter(env, budget).run(template.parsed);
  return String(result.value);
}
