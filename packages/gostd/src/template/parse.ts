import type { Arg, Command, Node, Pipe, Tree } from "./ast.js";
import type { TemplateBudget } from "./budget.js";
import { syntaxError } from "./errors.js";
import { type Item, type ItemType, lex } from "./lex.js";

/**
 * The parser of Go's text/template, following `text/template/parse`: actions, `if`/`else
 * if`/`else with`, `range` (with `break`/`continue`), `with`, `define`, `template`, `block`,
 * variables checked at parse time, pipelines and parenthesised pipelines with field chains.
 * Errors name the line, as Go's do (`template: :3: ...`). `isFunction` says which names
 * are functions (Go checks them at parse time too). `missingEndHint` adds which `{{ end }}`
 * is missing to Go's "unexpected EOF".
 */
export function parseTree(
  src: string,
  budget: TemplateBudget,
  isFunction: (name: string) => boolean,
  missingEndHint = false,
): Tree {
  const parser = new Parser(lex(src, budget), budget, isFunction, missingEndHint, src);
  return parser.parse();
}

type Stop = "end" | "else";

class Parser {
  private i = 0;
  private vars: string[] = ["$"];
  private rangeDepth = 0;
  private readonly defines = new Map<string, Node[]>();

  constructor(
    private readonly items: Item[],
    private readonly budget: TemplateBudget,
    private readonly isFunction: (name: string) => boolean,
    private readonly missingEndHint: boolean,
    private readonly src: string,
  ) {}

  parse(): Tree {
    const root = this.list(false);
    return { root, defines: this.defines, source: this.src };
  }

  /** The line of the end of the input, where Go reports an unexpected EOF. */
  private eofLine(): number {
    let line = 1;
    for (let i = this.src.indexOf("\n"); i !== -1; i = this.src.indexOf("\n", i + 1)) line++;
    return line;
  }

  private peek(): Item | undefined {
    return this.items[this.i];
  }

  private next(): Item {
    const it = this.items[this.i++];
    if (!it) throw syntaxError(this.eofLine(), "unexpected EOF");
    return it;
  }

  private nextNonSpace(): Item {
    let it = this.next();
    while (it.type === "space") it = this.next();
    return it;
  }

  private peekNonSpace(): Item | undefined {
    while (this.peek()?.type === "space") this.i++;
    return this.peek();
  }

  private expect(type: ItemType, context: string): Item {
    const it = this.nextNonSpace();
    if (it.type !== type) throw syntaxError(it.line, `unexpected ${describe(it)} in ${context}`);
    return it;
  }

  /** Nodes until `{{ end }}`/`{{ else }}` (when `nested`) or the end of the input. */
  private list(nested: boolean): Node[] & { stop?: Stop } {
    this.budget.enter();
    const out: Node[] & { stop?: Stop } = [];
    for (;;) {
      const it = this.peek();
      if (!it) {
        if (nested) {
          const hint = this.missingEndHint ? ": missing {{ end }}" : "";
          throw syntaxError(this.eofLine(), `unexpected EOF${hint}`);
        }
        break;
      }
      this.i++;
      if (it.type === "text") {
        out.push({ t: "text", text: it.val });
        continue;
      }
      const word = this.peekNonSpace();
      if (word?.type === "keyword" && (word.val === "end" || word.val === "else")) {
        if (!nested) throw syntaxError(word.line, `unexpected {{${word.val}}}`);
        this.i++;
        if (word.val === "end") this.expect("close", "end");
        out.stop = word.val as Stop;
        break;
      }
      const node = this.action();
      if (node) out.push(node);
    }
    this.budget.leave();
    return out;
  }

  /** After `{{`: one action. `define` returns nothing (it is stored aside). */
  private action(): Node | undefined {
    const it = this.peekNonSpace() as Item;
    if (it.type === "keyword") {
      this.i++;
      switch (it.val) {
        case "if":
        case "with":
        case "range":
          return this.control(it.val, it.line);
        case "template":
          return this.templateCall(it.line);
        case "block":
          return this.block(it.line);
        case "define":
          return this.define(it.line);
        case "break":
        case "continue":
          if (this.rangeDepth === 0) throw syntaxError(it.line, `{{${it.val}}} outside {{range}}`);
          this.expect("close", it.val);
          return { t: it.val, line: it.line };
      }
    }
    return { t: "action", line: it.line, pipe: this.pipeline("command", "close") };
  }

  /** `if`/`with`/`range`: pipeline, body, optional else (or else-if/else-with chain), end. */
  private control(kind: "if" | "with" | "range", line: number): Node {
    const mark = this.vars.length;
    const pipe = this.pipeline(kind, "close");
    if (kind === "range") this.rangeDepth++;
    const list = this.list(true);
    if (kind === "range") this.rangeDepth--;
    let elseList: (Node[] & { stop?: Stop }) | undefined;
    if (list.stop === "else") {
      const chained = this.peekNonSpace();
      if (
        (kind === "if" || kind === "with") &&
        chained?.type === "keyword" &&
        chained.val === kind
      ) {
        // `{{ else if x }}` is `{{ else }}{{ if x }}...{{ end }}{{ end }}` sharing one end.
        this.i++;
        elseList = [this.control(kind, chained.line)];
      } else {
        this.expect("close", "else");
        elseList = this.list(true);
        if (elseList.stop !== "end") throw syntaxError(line, "expected end; found {{else}}");
      }
    }
    this.vars.length = mark;
    return { t: kind, line, pipe, list: [...list], elseList: elseList && [...elseList] };
  }

  private templateName(context: string): string {
    const it = this.nextNonSpace();
    if (it.type !== "string")
      throw syntaxError(it.line, `unexpected ${describe(it)} in ${context}`);
    return it.val;
  }

  private templateCall(line: number): Node {
    const name = this.templateName("template clause");
    if (this.peekNonSpace()?.type === "close") {
      this.i++;
      return { t: "template", line, name };
    }
    return { t: "template", line, name, pipe: this.pipeline("template clause", "close") };
  }

  private define(line: number): undefined {
    const name = this.templateName("define clause");
    this.expect("close", "define clause");
    const body = this.withOwnVars(() => this.list(true));
    if (body.stop !== "end") throw syntaxError(line, "unexpected {{else}} in define clause");
    this.defines.set(name, [...body]);
    return undefined;
  }

  private block(line: number): Node {
    const name = this.templateName("block clause");
    const pipe = this.pipeline("block clause", "close");
    const body = this.withOwnVars(() => this.list(true));
    if (body.stop !== "end") throw syntaxError(line, "unexpected {{else}} in block clause");
    this.defines.set(name, [...body]);
    return { t: "template", line, name, pipe };
  }

  /** A defined template sees only `$` (its own data), as in Go. */
  private withOwnVars<T>(fn: () => T): T {
    const saved = this.vars;
    const savedRange = this.rangeDepth;
    this.vars = ["$"];
    this.rangeDepth = 0;
    try {
      return fn();
    } finally {
      this.vars = saved;
      this.rangeDepth = savedRange;
    }
  }

  /** `[decl :=] command ('|' command)*` up to `end` (a right delimiter or `)`). */
  private pipeline(context: string, end: "close" | "rparen"): Pipe {
    const start = this.peekNonSpace();
    const pipe: Pipe = {
      line: start?.line ?? 1,
      pos: start?.pos ?? 0,
      decl: [],
      isAssign: false,
      cmds: [],
    };
    this.declarations(pipe, context);
    for (;;) {
      const it = this.nextNonSpace();
      if (it.type === end) break;
      if (it.type === "close" || it.type === "rparen")
        throw syntaxError(it.line, `unexpected ${describe(it)} in ${context}`);
      this.i--;
      pipe.cmds.push(this.command(end));
      const sep = this.peekNonSpace();
      if (sep?.type === "pipe") this.i++;
    }
    if (pipe.cmds.length === 0) throw syntaxError(pipe.line, `missing value for ${context}`);
    pipe.cmds.slice(1).forEach((c, k) => {
      const first = c.args[0]?.t;
      if (
        first === "bool" ||
        first === "dot" ||
        first === "nil" ||
        first === "number" ||
        first === "string"
      )
        throw syntaxError(pipe.line, `non executable command in pipeline stage ${k + 2}`);
    });
    return pipe;
  }

  private declarations(pipe: Pipe, context: string): void {
    const save = this.i;
    const v = this.peekNonSpace();
    if (v?.type !== "variable") return;
    this.i++;
    const op = this.peekNonSpace();
    if (op?.type === "declare" || op?.type === "assign") {
      this.i++;
      pipe.isAssign = op.type === "assign";
      pipe.decl.push(v.val);
      if (op.type === "declare") this.vars.push(v.val);
      else this.requireVar(v.val, v.line);
      return;
    }
    if (op?.type === "comma" && context === "range") {
      this.i++;
      const second = this.expect("variable", "range");
      const op2 = this.nextNonSpace();
      if (op2.type !== "declare" && op2.type !== "assign")
        throw syntaxError(op2.line, `unexpected ${describe(op2)} in range`);
      pipe.isAssign = op2.type === "assign";
      pipe.decl.push(v.val, second.val);
      if (op2.type === "declare") this.vars.push(v.val, second.val);
      return;
    }
    if (op?.type === "comma") throw syntaxError(op.line, `too many declarations in ${context}`);
    this.i = save;
  }

  private requireVar(name: string, line: number): void {
    if (!this.vars.includes(name)) throw syntaxError(line, `undefined variable "${name}"`);
  }

  private command(end: "close" | "rparen"): Command {
    const args: Arg[] = [];
    this.peekNonSpace();
    const from = this.i;
    for (;;) {
      const it = this.peekNonSpace();
      if (!it) throw syntaxError(this.eofLine(), "unexpected EOF");
      if (it.type === end || it.type === "pipe" || it.type === "close" || it.type === "rparen")
        break;
      args.push(this.operand());
    }
    if (args.length === 0) throw syntaxError(this.peek()?.line ?? 1, "empty command");
    return { args, text: this.sourceText(from, this.i) };
  }

  /** The tokens from item `from` to item `to`, one space between: Go's text of a node. */
  private sourceText(from: number, to: number): string {
    const words: string[] = [];
    for (let k = from; k < to; k++) {
      const it = this.items[k] as Item;
      if (it.type === "space") continue;
      const before = this.items[k - 1]?.type;
      const glued =
        words.length > 0 &&
        before !== "space" &&
        (it.type === "field" || it.type === "rparen" || before === "lparen");
      if (glued) words[words.length - 1] += it.raw;
      else words.push(it.raw);
    }
    return words.join(" ");
  }

  /** A term followed by `.Field` chains written without spaces. */
  private operand(): Arg {
    const term = this.term();
    const fields: string[] = [];
    while (this.peek()?.type === "field") fields.push((this.next().val as string).slice(1));
    if (fields.length === 0) return term;
    if (term.t === "field" || term.t === "variable")
      return { ...term, ident: [...term.ident, ...fields] };
    if (
      term.t === "bool" ||
      term.t === "string" ||
      term.t === "number" ||
      term.t === "nil" ||
      term.t === "dot"
    )
      throw syntaxError(this.peek()?.line ?? 1, `unexpected . after term`);
    return { t: "chain", node: term, field: fields };
  }

  private term(): Arg {
    const it = this.next();
    this.budget.step();
    switch (it.type) {
      case "identifier":
        if (!this.isFunction(it.val))
          throw syntaxError(it.line, `function "${it.val}" not defined`);
        return { t: "identifier", name: it.val };
      case "dot":
        return { t: "dot" };
      case "nil":
        return { t: "nil" };
      case "variable":
        this.requireVar(it.val, it.line);
        return { t: "variable", ident: [it.val] };
      case "field":
        return { t: "field", ident: [it.val.slice(1)] };
      case "bool":
        return { t: "bool", value: it.val === "true" };
      case "string":
        return { t: "string", value: it.val };
      case "char":
        return { t: "number", value: Number(it.val), isFloat: false, text: it.val };
      case "number":
        return numberArg(it);
      case "lparen": {
        this.budget.enter();
        const pipe = this.pipeline("parenthesized pipeline", "rparen");
        this.budget.leave();
        return { t: "pipe", pipe };
      }
      default:
        throw syntaxError(it.line, `unexpected ${describe(it)} in operand`);
    }
  }
}

function numberArg(it: Item): Arg {
  const text = it.val.replaceAll("_", "");
  if (text.endsWith("i"))
    throw syntaxError(it.line, `complex numbers are not supported: ${it.val}`);
  const unsigned = text.replace(/^[+-]/, "");
  const negative = text.startsWith("-");
  let value: number;
  let isFloat = false;
  if (/^0[xX]/.test(unsigned) && !/[.pP]/.test(unsigned))
    value = Number.parseInt(unsigned.slice(2), 16);
  else if (/^0[bB]/.test(unsigned)) value = Number.parseInt(unsigned.slice(2), 2);
  else if (/^0[oO]/.test(unsigned)) value = Number.parseInt(unsigned.slice(2), 8);
  else if (/^0[0-7]+$/.test(unsigned)) value = Number.parseInt(unsigned, 8);
  else {
    value = Number(unsigned);
    isFloat = /[.eE]/.test(unsigned);
  }
  if (Number.isNaN(value)) throw syntaxError(it.line, `illegal number syntax: "${it.val}"`);
  return { t: "number", value: negative ? -value : value, isFloat, text: it.val };
}

function describe(it: Item): string {
  if (it.type === "close") return `"}}"`;
  if (it.type === "rparen") return `")"`;
  return `<${it.val}>`;
}
