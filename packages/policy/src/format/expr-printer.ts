/**
 * Prints bodies, expressions and terms in OPA's canonical layout: infix builtins written
 * infix (nested ones in parentheses), refs with `.key` where the key allows it, collections
 * on one line unless their elements were on several (then one source line per output line,
 * trailing comma), comprehension bodies inline unless written on later lines.
 */
import type { Body, CallTerm, Expr, Loc, Term, WithModifier } from "../ast/nodes.js";
import { keywords } from "../ast/nodes.js";
import type { SourceMap } from "../syntax/lexer.js";
import type { CommentQueue } from "./comments.js";
import {
  infixOf,
  isMember3,
  isUnion,
  Level,
  levelOf,
  needsParens,
  unaryOperand,
} from "./operators.js";
import type { PrintStyle } from "./style.js";
import type { Writer } from "./writer.js";

const varLike = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class ExprPrinter {
  constructor(
    protected readonly w: Writer,
    protected readonly map: SourceMap,
    protected readonly comments: CommentQueue,
    protected readonly style: PrintStyle,
  ) {}

  // ---- positions ------------------------------------------------------------------------

  /** The row of the last character of `loc`. */
  protected endRow(loc: Loc): number {
    return this.map.position(Math.max(loc.start, loc.end - 1)).row;
  }

  protected text(loc: Loc): string {
    return this.map.source.slice(loc.start, loc.end);
  }

  // ---- bodies and expressions -------------------------------------------------------------

  /** A body, one expression per line; a blank line in the source between two stays. */
  writeBody(body: Body): void {
    body.forEach((expr, i) => {
      const prev = body[i - 1];
      if (prev && expr.loc.row > this.endRow(prev.loc) + 1) this.w.blankLine();
      this.w.startLine();
      this.writeExpr(expr);
      this.w.endLine();
    });
  }

  writeExpr(expr: Expr): void {
    this.comments.insert(this.w, expr.loc.row);
    if (!this.w.inline) this.w.startLine();
    if (expr.negated) this.w.write("not ");
    switch (expr.type) {
      case "some":
        this.w.write(`some ${expr.vars.map((v) => v.name).join(", ")}`);
        break;
      case "somein":
        this.w.write("some ");
        if (expr.key) {
          this.writeOperand(expr.key);
          this.w.write(", ");
        }
        this.writeOperand(expr.value);
        this.w.write(" in ");
        this.writeOperand(expr.domain);
        break;
      case "every":
        this.writeEvery(expr);
        break;
      case "term":
        if (expr.term.type === "call" && (infixOf(expr.term) || isMember3(expr.term)))
          this.writeTopCall(expr.term);
        else this.writeTerm(expr.term);
    }
    this.writeWiths(expr);
  }

  /** `with` modifiers: on the expression's line when written there, else indented below. */
  private writeWiths(expr: Expr): void {
    const withs = expr.with;
    if (withs.length === 0) return;
    let lastRow = this.termsEndRow(expr, withs[0] as WithModifier);
    let indented = false;
    for (const mod of withs) {
      const below = mod.loc.row > lastRow;
      if (below) {
        if (!indented) this.w.up();
        indented = true;
        this.w.endLine();
        this.w.startLine();
        lastRow = mod.loc.row;
      } else this.w.write(" ");
      this.comments.insert(this.w, mod.loc.row);
      this.w.write("with ");
      this.writeTerm(mod.target);
      this.w.write(" as ");
      this.writeTerm(mod.value);
    }
    if (indented) this.w.down();
  }

  /** The row where an expression's own text ends, before its first `with`. */
  private termsEndRow(expr: Expr, first: WithModifier): number {
    let i = first.loc.start - 1;
    const src = this.map.source;
    while (i > expr.loc.start && /\s/.test(src[i] as string)) i--;
    return this.map.position(i).row;
  }

  private writeEvery(expr: Extract<Expr, { type: "every" }>): void {
    this.w.write("every ");
    if (expr.key) {
      this.writeTerm(expr.key);
      this.w.write(", ");
    }
    this.writeTerm(expr.value);
    this.w.write(" in ");
    this.writeTerm(expr.domain);
    this.w.write(" {");
    this.writeComprehensionBody(expr.body, expr.loc.row, this.endRow(expr.loc));
    const first = expr.body[0];
    if (expr.body.length === 1 && first && first.loc.row === expr.loc.row) this.w.write(" ");
    this.w.write("}");
  }

  /**
   * The infix call an expression consists of. Its operands go without parentheses unless
   * the parser would group them otherwise (OPA writes them bare).
   */
  private writeTopCall(call: CallTerm): void {
    if (isMember3(call)) {
      this.writeMember3(call);
      return;
    }
    const op = infixOf(call);
    const [lhs, rhs] = call.args as [Term, Term];
    if (op?.level === Level.In) {
      this.writeInOperands(lhs, rhs);
      return;
    }
    const level = op?.level ?? Level.Unify;
    this.writeTermParens(lhs, needsParens(lhs, level, false));
    this.w.write(` ${op?.text} `);
    this.writeTermParens(rhs, needsParens(rhs, level, true));
  }

  /**
   * `x in xs`: infix operands in parentheses, as OPA writes them, except a membership on
   * the left, which chains (`a in b in c` reads as `(a in b) in c`).
   */
  private writeInOperands(lhs: Term, rhs: Term): void {
    const chained = lhs.type === "call" && lhs.name === "internal.member_2";
    if (chained) this.writeTerm(lhs);
    else this.writeOperand(lhs);
    this.w.write(" in ");
    this.writeOperand(rhs);
  }

  // ---- terms -------------------------------------------------------------------------------

  writeTerm(t: Term): void {
    this.writeTermParens(t, false);
  }

  /** An operand of an infix operator: infix terms in it are parenthesised, as OPA does. */
  protected writeOperand(t: Term): void {
    this.writeTermParens(t, levelOf(t) !== undefined);
  }

  protected writeTermParens(t: Term, parens: boolean): void {
    this.comments.insert(this.w, t.loc.row);
    if (!this.w.inline) this.w.startLine();
    switch (t.type) {
      case "scalar":
        this.w.write(this.scalarText(t));
        break;
      case "var":
        this.w.write(t.name);
        break;
      case "ref":
        this.writeRef(t.head, t.path);
        break;
      case "array":
        this.w.write("[");
        this.writeItems(t.items, t.loc, (x) => this.writeTermParens(x, isUnion(x)));
        this.w.write("]");
        break;
      case "set":
        if (t.items.length === 0) {
          this.w.write("set()");
          break;
        }
        this.w.write("{");
        this.writeItems(t.items, t.loc, (x) => this.writeTermParens(x, isUnion(x)));
        this.w.write("}");
        break;
      case "object":
        this.w.write("{");
        this.writeEntries(t.entries, t.loc);
        this.w.write("}");
        break;
      case "arraycompr":
        this.writeComprehension("[", "]", t.term, t.body, t.loc);
        break;
      case "setcompr":
        this.writeComprehension("{", "}", t.term, t.body, t.loc);
        break;
      case "objectcompr":
        this.writeObjectComprehension(t);
        break;
      case "call":
        this.writeCall(t, parens);
        break;
      case "template":
        // Template strings keep their text: their parts are source, not layout.
        this.w.write(this.text(t.loc));
        break;
    }
    if (!this.w.inline) this.w.startLine();
  }

  /** Strings keep their quoting as written (raw strings stay raw); numbers their digits. */
  private scalarText(t: Extract<Term, { type: "scalar" }>): string {
    const v = t.value;
    const written = this.text(t.loc);
    if (typeof v === "string") {
      return written.startsWith('"') || written.startsWith("`") ? written : JSON.stringify(v);
    }
    if (typeof v === "number" || typeof v === "bigint") {
      return /^-?[0-9.]/.test(written) && !/\s/.test(written) ? written : String(v);
    }
    return String(v);
  }

  protected writeRef(head: Term, path: Term[]): void {
    if (head.type === "var") this.w.write(head.name);
    else this.writeTermParens(head, head.type === "call");
    for (const key of path) this.writeRefKey(key);
  }

  /** `.key` for strings that read as names (keywords too, unless written quoted). */
  protected writeRefKey(key: Term): void {
    if (key.type === "scalar" && typeof key.value === "string") {
      const quoted = this.text(key.loc).startsWith('"');
      const bare = varLike.test(key.value) && !(keywords.has(key.value) && quoted);
      this.w.write(bare ? `.${key.value}` : `[${JSON.stringify(key.value)}]`);
    } else if (key.type === "var") {
      this.w.write(`[${key.name}]`);
    } else {
      this.w.write("[");
      this.writeTerm(key);
      this.w.write("]");
    }
  }

  private writeCall(t: CallTerm, parens: boolean): void {
    const operand = unaryOperand(t, this.map.source);
    if (operand) {
      this.w.write("-");
      this.writeTermParens(operand, operand.type !== "var" && operand.type !== "ref");
      return;
    }
    if (isMember3(t)) {
      // Anywhere but as a whole expression its comma would split the enclosing list.
      this.w.write("(");
      this.writeMember3(t);
      this.w.write(")");
      return;
    }
    const op = infixOf(t);
    if (!op) {
      this.writeCallPlain(t);
      return;
    }
    if (parens) this.w.write("(");
    const [lhs, rhs] = t.args as [Term, Term];
    if (op.level === Level.In) this.writeInOperands(lhs, rhs);
    else {
      this.writeOperand(lhs);
      this.w.write(` ${op.text} `);
      this.writeOperand(rhs);
    }
    if (parens) this.w.write(")");
  }

  private writeMember3(t: CallTerm): void {
    const [k, v, c] = t.args as [Term, Term, Term];
    this.writeOperand(k);
    this.w.write(", ");
    this.writeOperand(v);
    this.w.write(" in ");
    this.writeOperand(c);
  }

  private writeCallPlain(t: CallTerm): void {
    if (t.op.type === "ref") this.writeRef(t.op.head, t.op.path);
    else if (t.op.type === "var") this.w.write(t.op.name);
    else this.w.write(t.name);
    this.w.write("(");
    this.writeItems(t.args, t.loc, (x) => this.writeTerm(x));
    this.w.write(")");
  }

  // ---- collections ---------------------------------------------------------------------------

  protected writeItems(items: Term[], loc: Loc, each: (t: Term) => void): void {
    this.writeIterable(
      items.map((t) => ({ row: t.loc.row, write: () => each(t) })),
      loc,
    );
  }

  private writeEntries(entries: [Term, Term][], loc: Loc): void {
    const items = entries.map(([k, v]) => ({
      row: k.loc.row,
      write: () => {
        this.writeTermParens(k, isUnion(k));
        this.w.write(": ");
        this.writeTermParens(v, isUnion(v));
      },
    }));
    this.writeIterable(items, loc);
  }

  /**
   * Elements grouped by source line. One group stays on the line; several go one group per
   * line, indented, each line ending in a comma, the closing bracket on its own line.
   */
  protected writeIterable(items: { row: number; write: () => void }[], loc: Loc): void {
    const lines: { row: number; write: () => void }[][] = [];
    let lastRow = loc.row;
    for (const item of items) {
      const line = lines.at(-1);
      if (line && item.row > lastRow) lines.push([item]);
      else if (line) line.push(item);
      else lines.push([item]);
      lastRow = item.row;
    }
    if (lines.length === 0) return;
    const closeRow = this.endRow(loc);
    const first = items[0] as { row: number };
    const multiline =
      lines.length > 1 ||
      first.row > loc.row ||
      this.comments.anyBetween(lastRow, closeRow) ||
      this.comments.anyBetween(loc.row, first.row);
    if (multiline) {
      this.w.delayTrailing();
      this.w.endLine();
      this.w.up();
      this.w.startLine();
    }
    lines.forEach((line, i) => {
      line.forEach((item, j) => {
        if (j > 0) this.w.write(", ");
        item.write();
      });
      if (i < lines.length - 1) {
        this.w.write(",");
        this.w.endLine();
        this.w.startLine();
      }
    });
    if (multiline) {
      this.w.write(",");
      this.w.endLine();
      this.comments.insert(this.w, closeRow);
      this.w.down();
      this.w.startLine();
    }
  }

  // ---- comprehensions ------------------------------------------------------------------------

  private writeComprehension(open: string, close: string, term: Term, body: Body, loc: Loc): void {
    this.w.write(open);
    if (term.loc.row > loc.row) {
      this.w.endLine();
      this.w.startLine();
    }
    this.writeTermParens(term, isUnion(term));
    this.w.write(" |");
    this.writeComprehensionBody(body, term.loc.row, this.endRow(loc));
    this.w.write(close);
  }

  private writeObjectComprehension(t: Extract<Term, { type: "objectcompr" }>): void {
    this.w.write("{");
    if (t.key.loc.row - t.loc.row > 1) {
      this.w.endLine();
      this.w.startLine();
    }
    this.writeTermParens(t.key, isUnion(t.key));
    this.w.write(": ");
    this.writeTermParens(t.value, isUnion(t.value));
    this.w.write(" |");
    this.writeComprehensionBody(t.body, t.key.loc.row, this.endRow(t.loc));
    this.w.write("}");
  }

  /** Inline (`; ` between expressions) when all of it follows the term on its line. */
  private writeComprehensionBody(body: Body, termRow: number, closeRow: number): void {
    const first = body[0];
    if (!first) return;
    const rows = new Set(body.map((e) => e.loc.row));
    if (first.loc.row > termRow || rows.size > 1) {
      this.w.endLine();
      this.w.up();
      this.writeBody(body);
      this.comments.insert(this.w, closeRow);
      this.w.down();
      this.w.startLine();
      return;
    }
    this.w.write(" ");
    body.forEach((expr, i) => {
      if (i > 0) this.w.write("; ");
      this.writeExpr(expr);
    });
    this.comments.insert(this.w, closeRow);
  }
}
