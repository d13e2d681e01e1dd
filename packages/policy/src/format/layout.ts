/**
 * The printer's groundwork: source positions, the layout of element lists (collections,
 * call arguments, rule arguments) and OPA's fallback for a collection it cannot lay out —
 * one whose elements share a line while a comment sits inside it is written as the source
 * had it, together with the terms around it up to the expression or rule head it is in.
 */
import type { Loc, Term } from "../ast/nodes.js";
import type { SourceMap } from "../syntax/lexer.js";
import type { CommentQueue } from "./comments.js";
import { type Span, spanWithParens } from "./source-parens.js";
import type { PrintStyle } from "./style.js";
import type { Writer } from "./writer.js";

/** Thrown where a collection must be written as its source; caught by writeAsSource. */
class WriteAsSource extends Error {
  override name = "WriteAsSource";
}

/** One element of a list: its row, where its text starts, and how to write it. */
export interface ListItem {
  row: number;
  /** The element's text with the parentheses the source gave it. */
  span: Span;
  /** The row the element's text ends on. */
  endRow: number;
  write: () => void;
}

/**
 * Collections fall back to their source text on comments inside; a call's arguments go one
 * group per line only when the source spread them over lines; rule arguments also when the
 * first one was on a later line.
 */
export type ListKind = "collection" | "call" | "args";

export class LayoutBase {
  /** True while writing inside a term that falls back to its source text as a whole. */
  private sourceScope = false;

  constructor(
    protected readonly w: Writer,
    protected readonly map: SourceMap,
    protected readonly comments: CommentQueue,
    protected readonly style: PrintStyle,
  ) {}

  /** The row of the last character of `loc`. */
  protected endRow(loc: Loc): number {
    return this.map.position(Math.max(loc.start, loc.end - 1)).row;
  }

  protected text(loc: Loc): string {
    return this.map.source.slice(loc.start, loc.end);
  }

  /** A list item for term `t`; `floor` is a call's own opening parenthesis. */
  protected listItem(t: Term, write: () => void, floor = -1): ListItem {
    return {
      row: t.loc.row,
      span: spanWithParens(this.map.source, t.loc, floor),
      endRow: this.endRow(t.loc),
      write,
    };
  }

  // ---- writing a term as its source ------------------------------------------------------

  /**
   * Writes `t` with `write`; should a collection inside it call for its source text, `t` is
   * written as its source instead (OPA's printer does this at the outermost term of an
   * expression, rule head or `with`).
   */
  protected writeOrSource(t: Term, write: () => void): void {
    if (this.sourceScope) {
      write();
      return;
    }
    const w = this.w.mark();
    const c = this.comments.mark();
    this.sourceScope = true;
    try {
      write();
    } catch (e) {
      if (!(e instanceof WriteAsSource)) throw e;
      this.w.reset(w);
      this.comments.reset(c);
      this.writeSource(t);
    } finally {
      this.sourceScope = false;
    }
  }

  /**
   * A term on a row whose comment would share an output line with another comment already
   * waiting there: OPA's printer writes the enclosing term as its source instead.
   */
  protected checkCommentClash(row: number): void {
    if (this.sourceScope && this.w.hasTrailing() && this.comments.nextOnRow(row))
      throw new WriteAsSource();
  }

  /** Runs `fn` as a place of its own, where a term falls back alone (a body's expression). */
  protected ownScope(fn: () => void): void {
    const saved = this.sourceScope;
    this.sourceScope = false;
    try {
      fn();
    } finally {
      this.sourceScope = saved;
    }
  }

  /** The source text of `t`; the comments inside it are part of that text. */
  private writeSource(t: Term): void {
    const first = t.loc.row;
    const last = this.endRow(t.loc);
    this.comments.insertAbove(this.w, first);
    this.w.dropTrailingWithin(first, last);
    this.comments.skipBefore(last);
    this.comments.insert(this.w, last);
    if (!this.w.inline) this.w.startLine();
    this.w.write(this.text(t.loc));
  }

  // ---- lists -------------------------------------------------------------------------------

  /**
   * Elements grouped by source line. One group stays on the line; several go one group per
   * line, indented, each line ending in a comma, the closing bracket on its own line.
   */
  protected writeIterable(items: ListItem[], loc: Loc, kind: ListKind): void {
    const lines = groupByRow(items, loc.row);
    const first = items[0];
    if (!first) return;
    const multiline = lines.length > 1 || this.breaksBeforeFirst(items, loc, kind);
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
      this.comments.insert(this.w, this.endRow(loc));
      this.w.down();
      this.w.startLine();
    }
  }

  /** Whether a list whose elements share one source line is still written one per line. */
  private breaksBeforeFirst(items: ListItem[], loc: Loc, kind: ListKind): boolean {
    const first = items[0] as ListItem;
    const last = items.at(-1) as ListItem;
    const closeRow = this.endRow(loc);
    const commentInside = this.comments.anyBetween(loc.row, closeRow);
    if (kind === "collection") {
      if (commentInside && this.sourceScope) throw new WriteAsSource();
      return commentInside || this.newlinePrecedes(first, loc);
    }
    // A comment before the first argument or after the last one has no other line to go on.
    const commentAround =
      this.comments.anyBetween(loc.row, first.row) ||
      this.comments.anyBetween(last.endRow, closeRow);
    if (kind === "call") return commentAround;
    return commentAround || first.row > loc.row;
  }

  /**
   * OPA's test: a line break between the collection's opening bracket and the first place its
   * first element's text (parentheses included) occurs in the collection's text.
   */
  private newlinePrecedes(first: ListItem, loc: Loc): boolean {
    const text = this.text(loc);
    const cut = text.indexOf(this.map.source.slice(first.span.start, first.span.end));
    return cut > 0 && text.slice(0, cut).indexOf("\n") > 0;
  }
}

/** Items in lines: a new line wherever an item starts on a later row than the one before. */
function groupByRow(items: ListItem[], startRow: number): ListItem[][] {
  const lines: ListItem[][] = [];
  let lastRow = startRow;
  for (const item of items) {
    const line = lines.at(-1);
    if (line && item.row > lastRow) lines.push([item]);
    else if (line) line.push(item);
    else lines.push([item]);
    lastRow = item.row;
  }
  return lines;
}
