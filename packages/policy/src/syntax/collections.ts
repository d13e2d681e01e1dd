/**
 * Array, set and object literals and comprehensions, decided as OPA's parser decides them.
 * The first element is read as a single term (no operators): followed by `|` it heads a
 * comprehension, unless the body cannot be read and stops at a `,` at its own level — then,
 * and whenever the first element goes on with an operator, the whole is re-read as a literal
 * whose elements are full expressions (`[x | y, 5]` is an array of `x | y` and 5;
 * `[x - {10} | y]` is an array of one union). Composite terms already read at a position are
 * remembered, so re-reading costs no more than the first reading however deep they nest.
 */
import type { Body, Term } from "../ast/nodes.js";
import { isParseError, TokenCursor } from "./token-cursor.js";

/** A composite term read once, and where its text ended. */
interface Remembered {
  term: Term;
  end: number;
}

export abstract class CollectionParser extends TokenCursor {
  private readonly composites = new Map<number, Remembered>();

  /** A full expression (with `in`; `key, value in x` too when `keyValue`). */
  abstract parseIn(keyValue?: boolean): Term;
  /** Literals up to `close`. */
  abstract parseQuery(close?: string): Body;
  /** A single term with its ref and call suffixes, no operators. */
  abstract parseTerm(): Term;
  /** A term or a negated number (`-1`). */
  protected abstract parseUnary(): Term;

  /** The array, set, object or comprehension at `[` or `{`. */
  protected parseComposite(): Term {
    const at = this.pos;
    const known = this.composites.get(at);
    if (known) {
      this.pos = known.end;
      return known.term;
    }
    const start = this.tok.start;
    this.enter(start);
    const term = this.isSym("[") ? this.parseArray() : this.parseBrace();
    this.leave();
    this.composites.set(at, { term, end: this.pos });
    return term;
  }

  /** The first element of a collection, as a plain term (a negative number included). */
  private parseHead(): Term {
    this.depth++;
    const head = this.isSym("-") ? this.parseUnary() : this.parseTerm();
    this.depth--;
    return head;
  }

  /**
   * The body of a comprehension up to `close` (consumed), or undefined when it cannot be
   * read and the reading stopped at a `,` of its own: then it is a literal, not a body.
   */
  private comprehensionBody(close: string): Body | undefined {
    const m = this.mark();
    try {
      const body = this.parseQuery(close);
      this.expect(close);
      return body;
    } catch (e) {
      if (!isParseError(e) || !this.isSym(",") || this.nesting !== m.nesting) throw e;
      this.reset(m);
      return undefined;
    }
  }

  private parseArray(): Term {
    const start = this.next().start;
    if (this.accept("]")) return { type: "array", items: [], loc: this.loc(start) };
    const first = this.mark();
    const head = this.parseHead();
    if (this.accept("]")) return { type: "array", items: [head], loc: this.loc(start) };
    if (this.accept(",")) {
      const items = [head, ...this.parseList("]")];
      return { type: "array", items, loc: this.loc(start) };
    }
    if (this.accept("|")) {
      const body = this.comprehensionBody("]");
      if (body) return { type: "arraycompr", term: head, body, loc: this.loc(start) };
    }
    this.reset(first);
    return { type: "array", items: this.parseList("]"), loc: this.loc(start) };
  }

  private parseBrace(): Term {
    const start = this.next().start;
    if (this.accept("}")) return { type: "object", entries: [], loc: this.loc(start) };
    const first = this.mark();
    let head = this.parseHead();
    if (this.accept("|")) {
      const body = this.comprehensionBody("}");
      if (body) return { type: "setcompr", term: head, body, loc: this.loc(start) };
      this.reset(first);
      return this.setRest(start);
    }
    if (!this.isSym("}") && !this.isSym(",") && !this.isSym(":")) {
      this.reset(first);
      this.depth++;
      head = this.parseIn();
      this.depth--;
    }
    if (this.accept(":")) return this.parseObject(head, start);
    if (this.isSym("}") || this.isSym(",")) {
      this.reset(first);
      return this.setRest(start);
    }
    throw this.unexpected("non-terminated set");
  }

  /** A set literal from its first element on. */
  private setRest(start: number): Term {
    return { type: "set", items: this.parseList("}"), loc: this.loc(start) };
  }

  /** An object literal or comprehension, after its first key and `:`. */
  private parseObject(key: Term, start: number): Term {
    const valueAt = this.mark();
    const value = this.parseHead();
    if (this.accept("|")) {
      const body = this.comprehensionBody("}");
      if (body) return { type: "objectcompr", key, value, body, loc: this.loc(start) };
    }
    if (!this.isSym("}") && !this.isSym(",")) {
      this.reset(valueAt);
      this.depth++;
      const full = this.parseIn();
      this.depth--;
      return this.objectRest(key, full, start);
    }
    return this.objectRest(key, value, start);
  }

  private objectRest(key: Term, value: Term, start: number): Term {
    const entries: [Term, Term][] = [[key, value]];
    this.depth++;
    while (this.accept(",")) {
      if (this.isSym("}")) break;
      const k = this.parseIn();
      this.expect(":");
      entries.push([k, this.parseIn()]);
    }
    this.depth--;
    this.expect("}");
    return { type: "object", entries, loc: this.loc(start) };
  }

  /** Comma-separated expressions up to `close` (consumed); a trailing comma is allowed. */
  protected parseList(close: string): Term[] {
    this.depth++;
    const items: Term[] = [];
    while (!this.isSym(close)) {
      items.push(this.parseIn());
      if (!this.accept(",")) break;
    }
    this.depth--;
    this.expect(close);
    return items;
  }
}
