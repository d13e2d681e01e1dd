// Checks that every field a Go template reads exists in the data Ollama passes.
import type { Arg, Node, Pipe, Tree } from "@quintet/gostd/template";
import { LlmsrvError } from "../errors.js";
import { STRUCT_TYPES, type TypedField } from "./ollama-types.js";

/**
 * Checks, before a template is stored, that every field it reads exists in the data Ollama
 * passes: the top-level names (`.System`, `.Messages`, ...) and the fields of the `api`
 * types under them (`.Role`, `.ToolCalls`, `.Function.Name`, ...), following the type of
 * the dot through `with`, `range` and variables. A misspelt field would otherwise print
 * `<no value>` or fail at chat time; here it is a 400 naming the line. Values whose type is
 * open (maps such as tool-call arguments, JSON-schema parts) accept any field.
 */

/** The data every rendering gets, by field, with each field's type. */
const TOP_FIELDS: Readonly<Record<string, string>> = {
  System: "string",
  Prompt: "string",
  Response: "string",
  Suffix: "string",
  Messages: "[]api.Message",
  Tools: "[]api.Tool",
  Think: "bool",
  ThinkLevel: "string",
  IsThinkSet: "bool",
};

const TOP = "top";
const ANY = "any";

const RESULT_TYPES: Readonly<Record<string, string>> = {
  not: "bool",
  eq: "bool",
  ne: "bool",
  lt: "bool",
  le: "bool",
  gt: "bool",
  ge: "bool",
  len: "int",
};

function fieldError(line: number, detail: string): LlmsrvError {
  return new LlmsrvError("bad_request", `template: :${line}: ${detail}`);
}

/** The element type a range visits, and its key type. */
function elementOf(type: string): { key: string; elem: string } {
  if (type.startsWith("[]")) return { key: "int", elem: type.slice(2) };
  if (type.startsWith("map[string]"))
    return { key: "string", elem: type.slice("map[string]".length) };
  if (type === "int") return { key: "int", elem: "int" };
  return { key: ANY, elem: ANY };
}

/** The type of field `name` of a value of `type`; throws a 400 when there is none. */
function fieldOf(type: string, name: string, line: number): string {
  if (type === TOP) {
    const t = TOP_FIELDS[name];
    if (!t)
      throw fieldError(
        line,
        `the template data has no field "${name}" (it has ${Object.keys(TOP_FIELDS).join(", ")})`,
      );
    return t;
  }
  const struct = STRUCT_TYPES.get(type);
  if (struct) {
    const f = (struct.fields as TypedField[]).find((x) => x.name === name);
    if (!f)
      throw fieldError(
        line,
        `can't evaluate field ${name} in type ${type} (it has ${struct.fields.map((x) => x.name).join(", ")})`,
      );
    return f.type;
  }
  if (type.startsWith("map[string]")) return elementOf(type).elem;
  if (type === ANY || type === "api.ToolCallFunctionArguments") return ANY;
  throw fieldError(line, `can't evaluate field ${name} in type ${type}`);
}

class FieldChecker {
  private vars: Array<{ name: string; type: string }> = [{ name: "$", type: TOP }];

  constructor(private readonly tree: Tree) {}

  run(): void {
    this.list(TOP, this.tree.root);
    for (const body of this.tree.defines.values()) {
      this.vars = [{ name: "$", type: ANY }];
      this.list(ANY, body);
    }
  }

  private list(dot: string, nodes: readonly Node[]): void {
    for (const n of nodes) {
      if (n.t === "action") this.pipe(dot, n.pipe, n.line);
      else if (n.t === "template" && n.pipe) this.pipe(dot, n.pipe, n.line);
      else if (n.t === "if" || n.t === "with" || n.t === "range") {
        const mark = this.vars.length;
        const type = this.pipe(dot, n.t === "range" ? { ...n.pipe, decl: [] } : n.pipe, n.line);
        let inner = n.t === "with" ? type : dot;
        if (n.t === "range") {
          const { key, elem } = elementOf(type);
          const [a, b] = n.pipe.decl;
          if (b !== undefined)
            this.vars.push({ name: a as string, type: key }, { name: b, type: elem });
          else if (a !== undefined) this.vars.push({ name: a, type: elem });
          inner = elem;
        }
        this.list(inner, n.list);
        if (n.elseList) this.list(dot, n.elseList);
        this.vars.length = mark;
      }
    }
  }

  private varType(name: string): string {
    for (let i = this.vars.length - 1; i >= 0; i--)
      if (this.vars[i]?.name === name) return this.vars[i]?.type as string;
    return ANY;
  }

  private pipe(dot: string, pipe: Pipe, line: number): string {
    let type = ANY;
    for (const cmd of pipe.cmds) {
      const [first, ...rest] = cmd.args as [Arg, ...Arg[]];
      const argTypes = rest.map((a) => this.arg(dot, a, line));
      const own = this.arg(dot, first, line);
      type = first.t === "identifier" ? this.result(first.name, argTypes, type) : own;
    }
    for (const d of pipe.decl) {
      if (pipe.isAssign) {
        const v = [...this.vars].reverse().find((x) => x.name === d);
        if (v && v.type !== type) v.type = ANY;
      } else this.vars.push({ name: d, type });
    }
    return type;
  }

  private result(fn: string, args: string[], piped: string): string {
    if (RESULT_TYPES[fn]) return RESULT_TYPES[fn] as string;
    if (fn === "index") return args.length >= 2 ? elementOf(args[0] as string).elem : ANY;
    if (fn === "slice") return args[0] ?? piped;
    if (fn === "and" || fn === "or") return ANY;
    return "string";
  }

  private arg(dot: string, a: Arg, line: number): string {
    switch (a.t) {
      case "dot":
        return dot;
      case "field":
        return a.ident.reduce((t, name) => fieldOf(t, name, line), dot);
      case "variable":
        return a.ident
          .slice(1)
          .reduce((t, name) => fieldOf(t, name, line), this.varType(a.ident[0] as string));
      case "chain":
        return a.field.reduce((t, name) => fieldOf(t, name, line), this.arg(dot, a.node, line));
      case "pipe": {
        const mark = this.vars.length;
        const t = this.pipe(dot, a.pipe, a.pipe.line);
        this.vars.length = mark;
        return t;
      }
      case "string":
        return "string";
      case "bool":
        return "bool";
      case "number":
        return a.isFloat ? "float64" : "int";
      case "identifier":
        return this.result(a.name, [], ANY);
      default:
        return ANY;
    }
  }
}

/** Throws a 400 naming the line when `tree` reads a field Ollama's template data lacks. */
export function checkTemplateFields(tree: Tree): void {
  new FieldChecker(tree).run();
}
