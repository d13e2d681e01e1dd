/**
 * strings.render_template: executes a Go text/template subset (see template-parse.ts) over
 * the variables object. Values print as Go prints decoded JSON (`[a b]`, `map[k:v]`), and a
 * missing key prints `<undefined>`.
 */
import { BuiltinError } from "../errors.js";
import { formatNumber, isNumber } from "../value/number.js";
import { compare, equal, RegoObject, RegoSet, type Value } from "../value/value.js";
import { asObject, asString } from "./args.js";
import type { BuiltinDef } from "./registry-types.js";
import { goSprintfValues } from "./sprintf.js";
import { type Command, type Node, type Pipe, parseTemplate, type Term } from "./template-parse.js";

/** A key absent from its map: prints as `<undefined>`, is false in conditions. */
const MISSING = Symbol("missing");
type TValue = Value | typeof MISSING;

function execError(message: string): BuiltinError {
  return new BuiltinError(`strings.render_template: template: ${message}`);
}

/** Go's fmt %v of a decoded JSON value. */
function show(v: TValue): string {
  if (v === MISSING) return "<undefined>";
  if (v === null) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  if (isNumber(v)) return formatNumber(v);
  if (Array.isArray(v)) return `[${v.map(show).join(" ")}]`;
  if (v instanceof RegoSet) return `[${v.sorted().map(show).join(" ")}]`;
  return `map[${v
    .sortedEntries()
    .map(([k, x]) => `${show(k)}:${show(x)}`)
    .join(" ")}]`;
}

/** Go's template truth: false, 0, nil, missing and empty values are false. */
function truthy(v: TValue): boolean {
  if (v === MISSING || v === null || v === false) return false;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return v !== "";
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof RegoObject || v instanceof RegoSet) return v.size > 0;
  return true;
}

function field(v: TValue, name: string): TValue {
  if (v instanceof RegoObject) return v.get(name) ?? MISSING;
  if (v === MISSING || v === null) return MISSING;
  throw execError(
    `can't evaluate field ${name} in type ${Array.isArray(v) ? "[]interface {}" : typeof v}`,
  );
}

const compareFns: Record<string, (c: number) => boolean> = {
  lt: (c) => c < 0,
  le: (c) => c <= 0,
  gt: (c) => c > 0,
  ge: (c) => c >= 0,
};

type Fn = (args: TValue[]) => TValue;

const functions: Record<string, Fn> = {
  and: (a) => a.find((x) => !truthy(x)) ?? (a[a.length - 1] as TValue),
  or: (a) => a.find((x) => truthy(x)) ?? (a[a.length - 1] as TValue),
  not: (a) => !truthy(a[0] as TValue),
  len: ([x]) => {
    if (typeof x === "string") return Buffer.byteLength(x);
    if (Array.isArray(x)) return x.length;
    if (x instanceof RegoObject || x instanceof RegoSet) return x.size;
    throw execError("error calling len: len of unsupported type");
  },
  index: ([x, ...keys]) => keys.reduce<TValue>((acc, k) => indexInto(acc, k), x as TValue),
  eq: ([a, ...rest]) => rest.some((b) => equal(plainOf(a), plainOf(b))),
  ne: ([a, b]) => !equal(plainOf(a), plainOf(b)),
  print: (a) => a.map(show).join(""),
  println: (a) => `${a.map(show).join(" ")}\n`,
  printf: ([format, ...rest]) => goSprintfValues(show(format as TValue), rest.map(plainOf)),
};
for (const [name, test] of Object.entries(compareFns)) {
  functions[name] = ([a, b]) => test(compare(plainOf(a), plainOf(b)));
}

function plainOf(v: TValue | undefined): Value {
  return v === undefined || v === MISSING ? null : v;
}

function indexInto(x: TValue, k: TValue): TValue {
  if (Array.isArray(x) && typeof k === "number") {
    if (k < 0 || k >= x.length) throw execError(`error calling index: index out of range: ${k}`);
    return x[k] as Value;
  }
  if (x instanceof RegoObject) return x.get(plainOf(k)) ?? MISSING;
  throw execError(`error calling index: can't index item of type ${typeof x}`);
}

/** Runs nodes against the current dot and variable scope. */
class Executor {
  out = "";

  constructor(private readonly vars: Map<string, TValue>) {}

  run(nodes: Node[], dot: TValue): void {
    for (const node of nodes) this.node(node, dot);
  }

  private node(node: Node, dot: TValue): void {
    switch (node.kind) {
      case "text":
        this.out += node.text;
        return;
      case "output": {
        const v = this.pipe(node.pipe, dot);
        if (node.pipe.decl.length === 0) this.out += show(v);
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
    const v = this.pipe({ decl: [], commands: node.pipe.commands }, dot);
    let entries: [Value, Value][];
    if (Array.isArray(v)) entries = v.map((x, i) => [i, x]);
    else if (v instanceof RegoSet) entries = v.sorted().map((x, i) => [i, x]);
    else if (v instanceof RegoObject) entries = v.sortedEntries();
    else if (v === MISSING || v === null) entries = [];
    else throw execError(`range can't iterate over ${show(v)}`);
    if (entries.length === 0) {
      this.run(node.otherwise, dot);
      return;
    }
    for (const [k, x] of entries) {
      if (second !== undefined) {
        this.vars.set(first as string, k);
        this.vars.set(second, x);
      } else if (first !== undefined) this.vars.set(first, x);
      this.run(node.body, x);
    }
  }

  private pipe(pipe: Pipe, dot: TValue): TValue {
    let value: TValue | undefined;
    for (const command of pipe.commands) value = this.command(command, dot, value);
    const result = value as TValue;
    for (const name of pipe.decl) this.vars.set(name, result);
    return result;
  }

  private command(command: Command, dot: TValue, piped: TValue | undefined): TValue {
    const [head, ...rest] = command as [Term, ...Term[]];
    if (head.kind !== "func") {
      if (rest.length > 0 || piped !== undefined)
        throw execError("can't give argument to non-function");
      return this.term(head, dot);
    }
    const fn = functions[head.name];
    if (!fn) throw execError(`function "${head.name}" not defined`);
    const args = rest.map((t) => this.term(t, dot));
    if (piped !== undefined) args.push(piped);
    return fn(args);
  }

  private term(t: Term, dot: TValue): TValue {
    switch (t.kind) {
      case "literal":
        return t.value;
      case "dot":
        return t.fields.reduce(field, dot);
      case "var": {
        const v = this.vars.get(t.name);
        if (v === undefined) throw execError(`undefined variable: ${t.name}`);
        return t.fields.reduce(field, v);
      }
      case "group":
        return t.fields.reduce(field, this.pipe(t.pipe, dot));
      case "func":
        return this.command([t], dot, undefined);
    }
  }
}

function renderTemplate(args: Value[]): Value {
  const source = asString("strings.render_template", args[0] as Value, 1);
  const data = asObject("strings.render_template", args[1] as Value, 2);
  const executor = new Executor(new Map<string, TValue>([["$", data]]));
  executor.run(parseTemplate(source), data);
  return executor.out;
}

export const templateBuiltins: BuiltinDef[] = [
  {
    name: "strings.render_template",
    args: ["string", "object[string, any]"],
    result: "string",
    impl: renderTemplate,
  },
];
