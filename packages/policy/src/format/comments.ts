/**
 * The comments of a module, in source order, and how they are placed while printing: a
 * comment on the rows before a node is written on its own lines before it; one on the node's
 * own row waits for the end of the output line the node lands on (OPA's rule).
 */
import { type Comment, type SourceMap, tokenize } from "../syntax/lexer.js";
import type { Writer } from "./writer.js";

/** One `#` comment: its position and its text as printed (trailing blanks removed). */
export interface SourceComment {
  row: number;
  col: number;
  display: string;
  /** Starts an annotation block (see isMetadataHeader). */
  metadata: boolean;
}

/** The comments of a source (the parser keeps them only for annotations). */
export function readComments(map: SourceMap): SourceComment[] {
  const found: Comment[] = [];
  tokenize(map, 0, map.source.length, found);
  return found
    .map((c) => ({
      row: c.row,
      col: c.col,
      display: `#${c.text.replace(/\s+$/, "")}`,
      metadata: isMetadataHeader(c),
    }))
    .sort((a, b) => a.row - b.row || a.col - b.col);
}

/**
 * A comment that starts an annotation block, as OPA's parser and printer tell one: at column
 * 1, its text beginning with `METADATA` (so `#METADATA` and `# METADATA (x)` count too).
 */
export function isMetadataHeader(c: Pick<Comment, "text" | "col">): boolean {
  return c.col === 1 && c.text.trim().startsWith("METADATA");
}

/** The comments not printed yet, consumed front to back. */
export class CommentQueue {
  private next = 0;

  constructor(private readonly comments: SourceComment[]) {}

  /** Removes and returns the comment on `row` (imports keep theirs when sorted). */
  takeOnRow(row: number): SourceComment | undefined {
    const i = this.comments.findIndex((c, j) => j >= this.next && c.row === row);
    if (i < 0) return undefined;
    const [c] = this.comments.splice(i, 1);
    return c;
  }

  /** True when a comment not yet printed lies on a row in (from, to). */
  anyBetween(from: number, to: number): boolean {
    for (let i = this.next; i < this.comments.length; i++) {
      const c = this.comments[i] as SourceComment;
      if (c.row >= to) return false;
      if (c.row > from) return true;
    }
    return false;
  }

  /** Where the queue stands, to return to when a term is written again as source. */
  mark(): number {
    return this.next;
  }

  reset(mark: number): void {
    this.next = mark;
  }

  /** Consumes the comments on rows before `row`: they were written as part of source text. */
  skipBefore(row: number): void {
    while (
      this.next < this.comments.length &&
      (this.comments[this.next] as SourceComment).row < row
    )
      this.next++;
  }

  /** True when the next comment to print is the one on `row`. */
  nextOnRow(row: number): boolean {
    return this.comments[this.next]?.row === row;
  }

  /** True when a comment not yet printed lies before `row`. */
  anyBefore(row: number): boolean {
    const c = this.comments[this.next];
    return c !== undefined && c.row < row;
  }

  /**
   * Writes the comments above `row` on their own lines (keeping one blank line where the
   * source had any) and keeps the one on `row` for the end of its output line.
   */
  insert(w: Writer, row: number): void {
    this.insertAbove(w, row);
    const at = this.comments[this.next];
    if (at && at.row === row) {
      this.next++;
      w.trailingComment(at);
    }
  }

  /** Writes the comments above `row` on their own lines, as insert does. */
  insertAbove(w: Writer, row: number): void {
    const before: SourceComment[] = [];
    while (
      this.next < this.comments.length &&
      (this.comments[this.next] as SourceComment).row < row
    )
      before.push(this.comments[this.next++] as SourceComment);
    writeComments(w, before);
    const last = before.at(-1);
    if (last && row - last.row > 1) w.blankLine();
  }

  /** The comments left (after the last rule), written on their own lines. */
  flush(w: Writer): void {
    const rest = this.comments.slice(this.next);
    this.next = this.comments.length;
    writeComments(w, rest);
  }
}

/** Comments on their own lines; a gap in the source stays one blank line. */
function writeComments(w: Writer, comments: SourceComment[]): void {
  let inMetadata = false;
  comments.forEach((c, i) => {
    const prev = comments[i - 1];
    if (prev && c.row - prev.row > 1) {
      w.blankLine();
      inMetadata = false;
    } else if (prev && inMetadata && c.metadata) {
      // Two annotation blocks written back to back stay apart.
      w.blankLine();
    }
    if (c.metadata) inMetadata = true;
    w.writeLine(c.display);
  });
}
