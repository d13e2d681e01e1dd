/**
 * strings.render_template: executes a Go text/template subset (see template-parse.ts) over
 * the variables object, with the values Go would see (template-values.ts). A missing key
 * prints `<undefined>`; execution errors read like Go's, with the action's position.
 */
import { BuiltinError } from "../errors.js";
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { asObject, asString } from "./args.js";
import { withNamePrefix } from "./error-prefix.js";
import type { BuiltinDef } from "./registry-types.js";
import { type Command, type Node, type Pipe, parseTemplate, type Term } from "./template-parse.js";
import {
  fromData,
  MISSING,
  show,
  TemplateExecError,
  type TValue,
  templateFunctions,
  truthy,
} from "./template-values.js";

/** Unwinds to the innermost `range` for `{{break}}` and `{{continue}}`. */
class LoopSignal {
  constructor(readonly kind: "break" | "continue") {}
}

/** Reads `.name` from a map value, as Go's field evaluation does. */
function field(v: TValue, name: string): TValue {
  if (v instanceof RegoObject) return fromData(v.get(name));
  if (v === MISSING || v === null)
    throw new TemplateExecError(`nil pointer evaluating interface {}.${name}`);
  // Values inside the variables are interfaces to Go, whatever they hold.
  throw new TemplateExecError(`can't evaluate field ${name} in type interface {}`);
}

/** Follows a chain of fields; an error names the whole chain as Go's node text. */
function fields(start: TValue, names: string[], text: string): TValue {
  try {
    return names.reduce(field, start);
  } catch (e) {
    throw e instanceof TemplateExecError && e.node === undefined
      ? new TemplateExecError(e.message, text)
      : e;
  }
}

/** The entries `range` visits: index/element for arrays, sorted key/value for maps. */
function rangeEntries(v: TValue): [TValue, TValue][] {
  if (Array.isArray(v)) return v.map((x, i) => [i, fromData(x)]);
  if (v instanceof RegoSet) return v.sorted().map((x, i) => [i, fromData(x)]);
  if (v instanceof RegoObject) return v.sortedEntries().map(([k, x]) => [k, fromData(x)]);
  if (v === MISSING || v === null) return [];
  throw new TemplateExecError(`range can't iterate over ${show(v)}`);
}

/** Runs nodes against the current dot and variable scope. */
class Executor {
  out = "";

  constructor(private readonly vars: Map<string, TValue>) {}

  run(nodes: Node[], dot: TValue): void {
    for (const node of nodes) {
      if (node.kind === "text") this.out += node.text;
      else {
        try {
          this.action(node, dot);
        } catch (e) {
          if (!(e instanceof TemplateExecError)) throw e;
          const at = e.node === undefined ? "" : ` at <${e.node}>`;
          throw new BuiltinError(`template: ${node.at}: executing "template"${at}: ${e.message}`);
        }
      }
    }
  }

  private action(node: Exclude<Node, { kind: "text" }>, dot: TValue): void {
    switch (node.kind) {
      case "break":
      case "continue":
        throw new LoopSignal(node.kind);
      case "output": {
        const v = this.pipe(node.pipe, dot);
        // A nil interface prints as Go's "<no value>", which OPA shows as <undefined>.
        if (node.pipe.decl.length === 0) this.out += v === null ? show(MISSING) : show(v);
        return;
      }
      case "if":
      case "with": {
        const v = this.pipe(node.pipe, dot);
        if (truthy(v)) this.run(node.body, node.kind === "with" ? v : dot);
        else this.run(node.otherwise, dot);
        return;
      }
      case "range":
        this.range(node, dot);
    }
  }

  private range(node: Extract<Node, { kind: "range" }>, dot: TValue): void {
    const [first, second] = node.pipe.decl;
    const entries = rangeEntries(this.pipe({ ...node.pipe, decl: [] }, dot));
    if (entries.length === 0) {
      this.run(node.otherwise, dot);
      return;
    }
    for (const [k, x] of entries) {
      if (second !== undefined) {
        this.vars.set(first as string, k);
        this.vars.set(second, x);
      } else if (first !== undefined) this.vars.set(first, x);
      try {
        this.run(node.body, x);
      } catch (e) {
        if (!(e instanceof LoopSignal)) throw e;
        if (e.kind === "break") break;
      }
    }
  }

  private pipe(pipe: Pipe, dot: TValue): TValue {
    let value: TValue | undefined;
    pipe.commands.forEach((command, i) => {
      value = this.command(command, dot, value, pipe.texts[i] ?? "");
    });
    const result = value as TValue;
    for (const name of pipe.decl) {
      if (pipe.assign && !this.vars.has(name))
        throw new TemplateExecError(`undefined variable: ${name}`);
      this.vars.set(name, result);
    }
    return result;
  }

  private command(command: Command, dot: TValue, piped: TValue | undefined, text: string): TValue {
    const [head, ...rest] = command as [Term, ...Term[]];
    if (head.kind === "literal" && head.value === null && rest.length === 0) {
      throw new TemplateExecError("nil is not a command", "nil");
    }
    if (head.kind !== "func") {
      if (rest.length > 0 || piped !== undefined) {
        throw new TemplateExecError(`can't give argument to non-function ${text}`, text);
      }
      return this.term(head, dot);
    }
    const fn = templateFunctions[head.name] as (args: TValue[]) => TValue;
    const args = rest.map((t) => this.term(t, dot));
    if (piped !== undefined) args.push(piped);
    try {
      return fn(args);
    } catch (e) {
      if (!(e instanceof TemplateExecError)) throw e;
      throw new TemplateExecError(`error calling ${head.name}: ${e.message}`, text);
    }
  }

  private term(t: Term, dot: TValue): TValue {
    switch (t.kind) {
      case "literal":
        return t.value;
      case "dot":
        return fields(dot, t.fields, `.${t.fields.join(".")}`);
      case "var": {
        const v = this.vars.get(t.name);
        if (v === undefined) throw new TemplateExecError(`undefined variable: ${t.name}`);
        return fields(v, t.fields, [t.name, ...t.fields].join("."));
      }
      case "group":
        return fields(this.pipe(t.pipe, dot), t.fields, `.${t.fields.join(".")}`);
      case "func":
        return this.command([t], dot, undefined, t.name);
    }
  }
}

function renderTemplate(args: Value[]): Value {
  const source = asString("strings.render_template", args[0] as Value, 1);
  const data = asObject("strings.render_template", args[1] as Value, 2);
  const nodes = parseTemplate(source);
  const executor = new Executor(new Map<string, TValue>([["$", data]]));
  executor.run(nodes, data);
  return executor.out;
}

export const templateBuiltins: BuiltinDef[] = withNamePrefix([
  {
    name: "strings.render_template",
    args: ["string", "object[string, any]"],
    result: "string",
    impl: renderTemplate,
  },
]);
