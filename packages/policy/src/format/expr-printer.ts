/**
 * Prints bodies, expressions and terms in OPA's canonical layout: infix builtins written
 * infix (nested ones in parentheses), refs with `.key` where the key allows it, collections
 * on one line unless their elements were on several (then one source line per output line,
 * trailing comma), comprehension bodies inline unless written on later lines.
 */
import type { Body, CallTerm, Expr, Loc, Term, WithModifier } from "../ast/nodes.js";
import { keywords } from "../ast/nodes.js";
import {
  infixOf,
  isMember3,
  isUnion,
  Level,
  levelOf,
  needsParens,
  unaryOperand,
} from "../ast/operators.js";
import { LayoutBase, type ListItem } from "./layout.js";
import { parenSpan } from "./source-parens.js";

const varLike = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class ExprPrinter extends LayoutBase {
  /**
   * The first expression of a `p if { ... }` body: a `|` union leading it is parenthesised,
   * as the brace would otherwise read as a set comprehension's.
   */
  protected unionLead: Expr | undefined;

  // ---- bodies and expressions -------------------------------------------------------------

  /** A body, one expression per line; a blank line in the source between two stays. */
  writeBody(body: Body): void {
    body.forEach((expr, i) => {
      const prev = body[i - 1];
      if (prev && expr.loc.row > this.endRow(prev.loc) + 1) this.w.blankLine();
      this.w.startLine();
      this.ownScope(() => this.writeExpr(expr));
      this.w.endLine();
    });
  }

  writeExpr(expr: Expr): void {
    const lead = this.unionLead === expr;
    if (lead) this.unionLead = undefined;
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
        this.writeTermExpr(expr.term, lead && !expr.negated);
    }
    this.writeWiths(expr);
  }

  /**
   * The term an expression consists of. An infix call's operands, or a plain call's
   * arguments, are each written as their source should a comment call for it (OPA's printer).
   */
  private writeTermExpr(t: Term, lead: boolean): void {
    if (t.type !== "call" || unaryOperand(t, this.map.source)) {
      this.writeTerm(t);
      return;
    }
    if (!infixOf(t) && !isMember3(t)) {
      this.writeTermParens(t, false);
      return;
    }
    if (lead && isUnion(t)) {
      this.w.write("(");
      this.writeTopCall(t, false);
      this.w.write(")");
      return;
    }
    this.writeTopCall(t, lead);
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
      this.ownScope(() => this.writeTerm(mod.target));
      this.w.write(" as ");
      this.ownScope(() => this.writeTerm(mod.value));
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
   * the parser would group them otherwise (OPA writes them bare), or unless the left one is
   * a union leading a rule body (`leadUnion`).
   */
  private writeTopCall(call: CallTerm, leadUnion: boolean): void {
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
    this.writeTerm(lhs, needsParens(lhs, level, false) || (leadUnion && isUnion(lhs)));
    this.w.write(` ${op?.text} `);
    this.writeTerm(rhs, needsParens(rhs, level, true));
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

  /** A term, written as its source instead should a collection in it call for that. */
  writeTerm(t: Term, parens = false): void {
    this.writeOrSource(t, () => this.writeTermParens(t, parens));
  }

  /** An operand of an infix operator: infix terms in it are parenthesised, as OPA does. */
  protected writeOperand(t: Term): void {
    this.writeTerm(t, levelOf(t) !== undefined);
  }

  protected writeTermParens(t: Term, parens: boolean): void {
    this.checkCommentClash(t.loc.row);
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
        this.writeElements(t.items, t.loc);
        this.w.write("]");
        break;
      case "set":
        if (t.items.length === 0) {
          this.w.write("set()");
          break;
        }
        this.w.write("{");
        this.writeElements(t.items, t.loc);
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
    // A union written in parentheses keeps them; OPA drops any other argument's.
    const open = this.map.source.indexOf("(", t.op.loc.end);
    const items = t.args.map((x) => {
      const parens = isUnion(x) && parenSpan(this.map.source, x.loc, open) !== undefined;
      return this.listItem(x, () => this.writeTerm(x, parens), open);
    });
    this.writeIterable(items, t.loc, "call");
    this.w.write(")");
  }

  // ---- collections ---------------------------------------------------------------------------

  /** Terms as a rule's arguments. */
  protected writeArgs(args: Term[], loc: Loc): void {
    const open = this.map.source.indexOf("(", loc.start);
    const items = args.map((x) => this.listItem(x, () => this.writeTerm(x), open));
    this.writeIterable(items, loc, "args");
  }

  /** Array and set elements: a union among them is parenthesised (`|` would read as a bar). */
  private writeElements(elements: Term[], loc: Loc): void {
    const items = elements.map((x) => this.listItem(x, () => this.writeTerm(x, isUnion(x))));
    this.writeIterable(items, loc, "collection");
  }

  private writeEntries(entries: [Term, Term][], loc: Loc): void {
    const items: ListItem[] = entries.map(([k, v]) =>
      this.listItem(k, () => {
        this.writeTerm(k, isUnion(k));
        this.w.write(": ");
        this.writeTerm(v, isUnion(v));
      }),
    );
    this.writeIterable(items, loc, "collection");
  }

  // ---- comprehensions ------------------------------------------------------------------------

  /** A comprehension's term or value: a union, or a call the source parenthesised, in parens. */
  private termParens(term: Term, loc: Loc): boolean {
    if (term.type !== "call") return false;
    return isUnion(term) || parenSpan(this.map.source, term.loc, loc.start) !== undefined;
  }

  private writeComprehension(open: string, close: string, term: Term, body: Body, loc: Loc): void {
    this.w.write(open);
    if (term.loc.row > loc.row) {
      this.w.endLine();
      this.w.startLine();
    }
    this.writeTermParens(term, this.termParens(term, loc));
    this.w.write(" |");
    this.writeComprehensionBody(body, term.loc.row, this.endRow(loc));
    this.w.write(close);
  }

  /**
   * `{k: v | body}`: the key stays after the brace wherever the source had it, and the body
   * goes on lines of its own when it started below the brace (OPA's printer).
   */
  private writeObjectComprehension(t: Extract<Term, { type: "objectcompr" }>): void {
    this.w.write("{");
    this.writeTerm(t.key, isUnion(t.key));
    this.w.write(": ");
    this.writeTermParens(t.value, this.termParens(t.value, t.loc));
    this.w.write(" |");
    this.writeComprehensionBody(t.body, t.loc.row, this.endRow(t.loc));
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
