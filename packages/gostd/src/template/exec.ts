import { formatValue } from "../fmt/print.js";
import {
  GoFloat,
  GoNamed,
  GoStruct,
  isTrue,
  kindOf,
  numberOf,
  typeName,
  underlying,
} from "../fmt/value.js";
import type { Arg, Branch, Command, Node, Pipe, Tree } from "./ast.js";
import type { TemplateBudget } from "./budget.js";
import { FuncError, TemplateError } from "./errors.js";
import type { TemplateFunc } from "./funcs.js";

/**
 * Executes a parsed template as Go's text/template does with `missingkey=zero` (Ollama's
 * option): a missing map key is `<no value>`, a missing struct field an error; `and`/`or`
 * stop at the deciding operand and return it; a pipeline's value feeds the next command
 * as its last argument. Every node, expression and iteration is a step of the budget.
 */

/** How one rendering reads and reports (see TemplateOptions in template.ts). */
export interface ExecSettings {
  name: string;
  noValue: string;
  errorContext: boolean;
  interfaceValues: boolean;
  functions: ReadonlyMap<string, TemplateFunc>;
}

const MISSING = Symbol("missing");
type Final = unknown | typeof MISSING;

class BreakSignal {}
class ContinueSignal {}

export class Executor {
  private vars: Array<{ name: string; value: unknown }> = [];
  /** The action being executed: its line, and where its pipeline starts. */
  private line = 0;
  private pos = 0;
  /** The node being evaluated (a command or a field chain), for Go's ` at <node>`. */
  private node: string | undefined;

  constructor(
    private readonly tree: Tree,
    private readonly budget: TemplateBudget,
    private readonly out: string[],
    private readonly settings: ExecSettings,
  ) {}

  run(nodes: readonly Node[], data: unknown): void {
    this.vars = [{ name: "$", value: data }];
    this.walk(data, nodes);
  }

  /** Sets the action being executed (for error positions). */
  private at(line: number, pipe: Pipe | undefined): void {
    this.line = line;
    this.pos = pipe?.pos ?? this.pos;
    this.node = undefined;
  }

  /** An execution error in Go's words: with `errorContext`, its column and node as Go gives them. */
  private fail(detail: string): never {
    const { name, errorContext } = this.settings;
    if (!errorContext)
      throw new TemplateError(
        `template: ${name}:${this.line}: executing "${name}": ${detail}`,
        this.line,
        detail,
      );
    const before = this.tree.source.slice(0, this.pos);
    const lineStart = before.lastIndexOf("\n") + 1;
    const line = before.split("\n").length;
    const column = Buffer.byteLength(before.slice(lineStart));
    const node = this.node === undefined ? "" : ` at <${this.node}>`;
    throw new TemplateError(
      `template: ${name}:${line}:${column}: executing "${name}"${node}: ${detail}`,
      line,
      detail,
    );
  }

  private walk(dot: unknown, nodes: readonly Node[]): void {
    for (const n of nodes) {
      this.budget.step();
      switch (n.t) {
        case "text":
          this.write(n.text);
          break;
        case "action": {
          this.at(n.line, n.pipe);
          const v = this.pipeline(dot, n.pipe);
          if (n.pipe.decl.length === 0)
            this.write(v === undefined ? this.settings.noValue : formatValue(v));
          break;
        }
        case "if":
        case "with":
          this.ifOrWith(dot, n);
          break;
        case "range":
          this.range(dot, n);
          break;
        case "template":
          this.template(dot, n);
          break;
        case "break":
          throw new BreakSignal();
        case "continue":
          throw new ContinueSignal();
      }
    }
  }

  private write(text: string): void {
    this.budget.addText(text.length);
    this.out.push(text);
  }

  /** Runs `fn` in a nested variable scope, dropping what it declared. */
  private scoped(fn: () => void): void {
    const mark = this.vars.length;
    this.budget.enter();
    try {
      fn();
    } finally {
      this.vars.length = mark;
      this.budget.leave();
    }
  }

  private ifOrWith(dot: unknown, n: Branch): void {
    this.scoped(() => {
      this.at(n.line, n.pipe);
      const v = this.pipeline(dot, n.pipe);
      if (isTrue(v)) this.walk(n.t === "with" ? v : dot, n.list);
      else if (n.elseList) this.walk(dot, n.elseList);
    });
  }

  private range(dot: unknown, n: Branch): void {
    this.scoped(() => {
      this.at(n.line, n.pipe);
      const v = underlying(this.pipeline(dot, { ...n.pipe, decl: [] }));
      const mark = this.vars.length;
      for (const d of n.pipe.isAssign ? [] : n.pipe.decl)
        this.vars.push({ name: d, value: undefined });
      let empty = true;
      for (const [key, elem] of this.entries(v, n.pipe.decl.length)) {
        empty = false;
        this.budget.step();
        this.setRangeVars(n.pipe, key, elem);
        const inner = this.vars.length;
        try {
          this.walk(elem, n.list);
        } catch (e) {
          if (e instanceof BreakSignal) break;
          if (!(e instanceof ContinueSignal)) throw e;
        } finally {
          this.vars.length = inner;
        }
      }
      this.vars.length = mark;
      if (empty && n.elseList) this.walk(dot, n.elseList);
    });
  }

  private setRangeVars(pipe: Pipe, key: unknown, elem: unknown): void {
    const [first, second] = pipe.decl;
    if (first === undefined) return;
    if (second === undefined) this.setVar(first, elem);
    else {
      this.setVar(first, key);
      this.setVar(second, elem);
    }
  }

  /** The (key, element) pairs a range visits: slices, maps in key order, integers. */
  private *entries(v: unknown, vars: number): Generator<[unknown, unknown]> {
    const k = kindOf(v);
    if (k === "slice") {
      const list = v as ArrayLike<unknown>;
      for (let i = 0; i < list.length; i++) yield [i, list[i]];
    } else if (k === "map") {
      const m = v as Record<string, unknown>;
      for (const key of Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
        yield [key, m[key]];
    } else if (k === "int") {
      if (vars > 1) this.fail(`can't use ${formatValue(v)} to iterate over more than one variable`);
      for (let i = 0; i < numberOf(v); i++) yield [i, i];
    } else if (k !== "invalid" && k !== "nil")
      this.fail(`range can't iterate over ${formatValue(v)}`);
  }

  private template(dot: unknown, n: Extract<Node, { t: "template" }>): void {
    this.at(n.line, n.pipe);
    const body = this.tree.defines.get(n.name);
    if (!body) this.fail(`no such template "${n.name}"`);
    const newDot = n.pipe ? this.pipeline(dot, n.pipe) : undefined;
    const saved = this.vars;
    this.vars = [{ name: "$", value: newDot }];
    this.budget.enter();
    try {
      this.walk(newDot, body);
    } finally {
      this.vars = saved;
      this.budget.leave();
    }
  }

  private setVar(name: string, value: unknown): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i] as { name: string; value: unknown };
      if (v.name === name) {
        v.value = value;
        return;
      }
    }
    this.fail(`undefined variable: ${name}`);
  }

  private varValue(name: string): unknown {
    for (let i = this.vars.length - 1; i >= 0; i--)
      if (this.vars[i]?.name === name) return this.vars[i]?.value;
    return this.fail(`undefined variable: ${name}`);
  }

  private pipeline(dot: unknown, pipe: Pipe): unknown {
    this.budget.step();
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) {
      value = this.command(dot, cmd, value);
      // Go unwraps an empty interface: a nil one becomes the invalid value (`<no value>`).
      if (value === null) value = undefined;
    }
    this.node = undefined;
    for (const d of pipe.decl) {
      if (pipe.isAssign) this.setVar(d, value);
      else this.vars.push({ name: d, value });
    }
    return value;
  }

  private command(dot: unknown, cmd: Command, final: Final): unknown {
    const first = cmd.args[0] as Arg;
    const rest = cmd.args.slice(1);
    this.node = cmd.text;
    switch (first.t) {
      case "field":
      case "variable":
      case "chain":
        return this.chain(dot, first, rest, final);
      case "identifier":
        return this.call(dot, first.name, rest, final, cmd.text);
      default:
        if (rest.length > 0 || final !== MISSING)
          this.fail(`can't give argument to non-function ${describeArg(first)}`);
        if (first.t === "nil") this.fail("nil is not a command");
        return this.arg(dot, first);
    }
  }

  /** A field, a variable or a term with fields after it: its receiver, then the chain. */
  private chain(
    dot: unknown,
    a: Extract<Arg, { t: "field" | "variable" | "chain" }>,
    args: readonly Arg[],
    final: Final,
  ): unknown {
    if (a.t === "field") return this.fieldChain(dot, a.ident, args, final, `.${a.ident.join(".")}`);
    if (a.t === "chain")
      return this.fieldChain(this.arg(dot, a.node), a.field, args, final, `.${a.field.join(".")}`);
    const receiver = this.varValue(a.ident[0] as string);
    return this.fieldChain(receiver, a.ident.slice(1), args, final, a.ident.join("."));
  }

  /** `.a.b` on `receiver`; `text` names the chain in errors. */
  private fieldChain(
    receiver: unknown,
    ident: readonly string[],
    args: readonly Arg[],
    final: Final,
    text: string,
  ): unknown {
    let v = receiver;
    if (ident.length > 0) this.node = text;
    ident.forEach((name, i) => {
      const last = i === ident.length - 1;
      if (last && (args.length > 0 || final !== MISSING))
        this.fail(`${name} is not a method but has arguments`);
      v = this.field(v, name);
    });
    if (ident.length === 0 && (args.length > 0 || final !== MISSING))
      this.fail("can't give argument to non-function");
    return v;
  }

  private field(receiver: unknown, name: string): unknown {
    this.budget.step();
    if (receiver instanceof GoStruct) {
      if (!(receiver.type.fields ?? []).some((f) => f.name === name))
        this.fail(`can't evaluate field ${name} in type ${typeName(receiver)}`);
      return receiver.fields[name];
    }
    const u = underlying(receiver);
    const k = kindOf(u);
    // A nil map of a named map type (no tool-call arguments) has no keys.
    if (receiver instanceof GoNamed && u === null) return undefined;
    if (k === "map")
      return Object.hasOwn(u as object, name) ? (u as Record<string, unknown>)[name] : undefined;
    if (k === "invalid" || k === "nil") this.fail(`nil pointer evaluating interface {}.${name}`);
    const type = this.settings.interfaceValues ? "interface {}" : typeName(receiver);
    return this.fail(`can't evaluate field ${name} in type ${type}`);
  }

  private call(
    dot: unknown,
    name: string,
    args: readonly Arg[],
    final: Final,
    text: string,
  ): unknown {
    if (name === "and" || name === "or") return this.andOr(dot, name, args, final);
    const fn = this.settings.functions.get(name);
    if (!fn) return this.fail(`"${name}" is not a defined function`);
    const values = args.map((a) => this.arg(dot, a));
    if (final !== MISSING) values.push(final);
    this.node = text;
    try {
      const result = fn(values);
      if (typeof result === "string") this.budget.addText(result.length);
      return result;
    } catch (e) {
      if (e instanceof FuncError) this.fail(`error calling ${name}: ${e.message}`);
      throw e;
    }
  }

  /** `and`/`or`: evaluates operands until one decides, and returns that operand. */
  private andOr(dot: unknown, name: string, args: readonly Arg[], final: Final): unknown {
    const count = args.length + (final === MISSING ? 0 : 1);
    if (count < 1) this.fail(`wrong number of args for ${name}: want at least 1 got 0`);
    let v: unknown;
    for (let i = 0; i < count; i++) {
      v = i < args.length ? this.arg(dot, args[i] as Arg) : final;
      if (isTrue(v) === (name === "or")) return v;
    }
    return v;
  }

  private arg(dot: unknown, a: Arg): unknown {
    this.budget.step();
    switch (a.t) {
      case "dot":
        return dot;
      case "nil":
        return null;
      case "bool":
      case "string":
        return a.value;
      case "number":
        return a.isFloat ? new GoFloat(a.value) : a.value;
      case "field":
      case "variable":
      case "chain":
        return this.chain(dot, a, [], MISSING);
      case "identifier":
        return this.call(dot, a.name, [], MISSING, a.name);
      case "pipe": {
        const mark = this.vars.length;
        this.budget.enter();
        try {
          return this.pipeline(dot, a.pipe);
        } finally {
          this.vars.length = mark;
          this.budget.leave();
        }
      }
    }
  }
}

function describeArg(a: Arg): string {
  switch (a.t) {
    case "string":
      return JSON.stringify(a.value);
    case "number":
      return a.text;
    case "bool":
      return String(a.value);
    case "dot":
      return ".";
    default:
      return a.t;
  }
}
