/**
 * The evaluation tracer: turns the evaluator's hooks (EvalTracer) into OPA's trace events —
 * Enter, Exit, Eval, Redo, Fail, Note — each with the query it belongs to and that query's
 * parent, and hands them to listeners (explain, coverage, profiler, metrics).
 *
 * A query is OPA's unit of nesting: the top-level query, then one per rule body evaluated
 * on its behalf. Expressions of a body belong to the body's query; the depth of a query is
 * its parent's plus one, which is how OPA's pretty trace indents.
 */
import type { Body, Expr, Loc, Rule } from "../ast/nodes.js";
import type { EvalTracer } from "../eval/state.js";

export type TraceOp = "Enter" | "Exit" | "Eval" | "Redo" | "Fail" | "Note";

/** What an event is about: a query body, a rule or an expression. */
export type TraceNode =
  | { kind: "body"; body: Body }
  | { kind: "rule"; rule: Rule }
  | { kind: "expr"; expr: Expr };

/** One trace event, as OPA's topdown.Event. */
export interface TraceEvent {
  op: TraceOp;
  node: TraceNode;
  /** The query the event belongs to (1 for the top-level query). */
  queryId: number;
  /** The query that asked for this one (0 for the top level). */
  parentId: number;
  /** Nesting of the query: 1 for the top level. */
  depth: number;
  /** Where the node was written; undefined for nodes the compiler made up. */
  loc: Loc | undefined;
  /** The note of a Note event; "early" on the Exit of a rule that stops at one value. */
  message?: string;
}

export type TraceListener = (event: TraceEvent) => void;

interface Frame {
  id: number;
  parent: number;
  rule: Rule | undefined;
}

/** The start of a body: its first expression's location. */
function bodyLoc(body: Body): Loc | undefined {
  return body[0]?.loc;
}

/** Emits trace events for one or more evaluations to its listeners. */
export class EventTracer implements EvalTracer {
  private frames: Frame[] = [];
  private nextId = 1;
  /** The expression being evaluated last: where `trace()` notes are located. */
  private current: Expr | undefined;

  /** `onQuery` is told when a query's evaluation starts (for its timer). */
  constructor(
    private readonly listeners: readonly TraceListener[],
    private readonly onQuery?: () => void,
  ) {}

  private top(): Frame {
    let f = this.frames[this.frames.length - 1];
    if (!f) {
      // A data lookup without a query (`rego test`): an implicit top-level query.
      f = { id: this.nextId++, parent: 0, rule: undefined };
      this.frames.push(f);
    }
    return f;
  }

  private emit(op: TraceOp, node: TraceNode, loc: Loc | undefined, message?: string): void {
    const f = this.top();
    const event: TraceEvent = {
      op,
      node,
      queryId: f.id,
      parentId: f.parent,
      depth: this.frames.length,
      loc,
    };
    if (message !== undefined) event.message = message;
    for (const l of this.listeners) l(event);
  }

  private push(rule: Rule | undefined): void {
    const parent = this.frames[this.frames.length - 1]?.id ?? 0;
    this.frames.push({ id: this.nextId++, parent, rule });
  }

  query(body: Body, k: () => boolean, run: (k: () => boolean) => boolean): boolean {
    this.onQuery?.();
    this.frames = [];
    this.push(undefined);
    const node: TraceNode = { kind: "body", body };
    this.emit("Enter", node, bodyLoc(body));
    const stop = run(() => {
      this.emit("Exit", node, bodyLoc(body));
      const r = k();
      if (!r) this.emit("Redo", node, bodyLoc(body));
      return r;
    });
    this.frames.pop();
    return stop;
  }

  expr(e: Expr, k: () => boolean, run: (k: () => boolean) => boolean): boolean {
    const node: TraceNode = { kind: "expr", expr: e };
    this.current = e;
    this.emit("Eval", node, e.loc);
    let defined = false;
    const stop = run(() => {
      defined = true;
      const r = k();
      if (!r) {
        this.current = e;
        this.emit("Redo", node, e.loc);
      }
      return r;
    });
    if (!defined) this.emit("Fail", node, e.loc);
    return stop;
  }

  enterRule(rule: Rule): void {
    this.push(rule);
    this.emit("Enter", { kind: "rule", rule }, rule.loc);
  }

  exitRule(rule: Rule, early = false): void {
    this.emit("Exit", { kind: "rule", rule }, rule.loc, early ? "early" : undefined);
  }

  redoRule(rule: Rule): void {
    this.emit("Redo", { kind: "rule", rule }, rule.loc);
  }

  leaveRule(rule: Rule): void {
    // Pops down to the rule's own frame: an error caught while dependencies were computed
    // ahead of time may have left frames of rules that never finished.
    const at = this.frames.findLastIndex((f) => f.rule === rule);
    if (at >= 0) this.frames.length = at;
  }

  note(message: string): void {
    const e = this.current;
    this.emit("Note", e ? { kind: "expr", expr: e } : { kind: "body", body: [] }, e?.loc, message);
  }
}
