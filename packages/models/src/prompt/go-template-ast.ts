/**
 * The parse tree of a Go text/template, shaped like Go's `text/template/parse` nodes so
 * that Ollama's tree walks (finding the variables a template uses, cutting everything
 * after `{{ .Response }}`) carry over one to one.
 */

/** An operand of a command. */
export type Arg =
  | { t: "field"; ident: string[] }
  | { t: "variable"; ident: string[] }
  | { t: "dot" }
  | { t: "nil" }
  | { t: "bool"; value: boolean }
  | { t: "string"; value: string }
  | { t: "number"; value: number; isFloat: boolean; text: string }
  | { t: "identifier"; name: string }
  | { t: "chain"; node: Arg; field: string[] }
  | { t: "pipe"; pipe: Pipe };

/** One stage of a pipeline: a function, field or value with its arguments. */
export interface Command {
  args: Arg[];
}

/** `$a, $b := cmd | cmd`: declarations (or an assignment) and commands. */
export interface Pipe {
  line: number;
  decl: string[];
  isAssign: boolean;
  cmds: Command[];
}

/** `if`, `with` or `range`: a pipeline, a body and an optional else body. */
export interface Branch {
  t: "if" | "with" | "range";
  line: number;
  pipe: Pipe;
  list: Node[];
  elseList?: Node[];
}

export type Node =
  | { t: "text"; text: string }
  | { t: "action"; line: number; pipe: Pipe }
  | Branch
  | { t: "template"; line: number; name: string; pipe?: Pipe }
  | { t: "break" | "continue"; line: number };

/** A parsed template: its main body and the templates it defines (`define`, `block`). */
export interface Tree {
  root: Node[];
  defines: Map<string, Node[]>;
}

/** Field and variable names used in `nodes` (Ollama's `Identifiers`), lower-cased, sorted. */
export function identifiers(nodes: readonly Node[]): string[] {
  const names = new Set<string>();
  const pipe = (p: Pipe | undefined) => {
    for (const c of p?.cmds ?? []) for (const a of c.args) arg(a);
  };
  const arg = (a: Arg) => {
    if (a.t === "field" || a.t === "variable") for (const i of a.ident) names.add(i.toLowerCase());
    else if (a.t === "pipe") pipe(a.pipe);
  };
  const walk = (list: readonly Node[]) => {
    for (const n of list) {
      if (n.t === "action" || n.t === "template") pipe(n.pipe);
      else if (n.t === "if" || n.t === "with" || n.t === "range") {
        pipe(n.pipe);
        walk(n.list);
        if (n.elseList) walk(n.elseList);
      }
    }
  };
  walk(nodes);
  return [...names].sort();
}

/**
 * Ollama's cut for the last turn of a generation: the first action printing a field
 * named `Response` is kept and every node after it (at any depth) is dropped, so the
 * prompt ends where the model's answer begins.
 */
export function cutAfterResponse(nodes: readonly Node[]): Node[] {
  let cut = false;
  const pipeHasResponse = (p: Pipe) =>
    p.cmds.some((c) => c.args.some((a) => a.t === "field" && a.ident.includes("Response")));
  const walk = (list: readonly Node[]): Node[] => {
    const out: Node[] = [];
    for (const n of list) {
      if (cut) break;
      if (n.t === "action") {
        if (pipeHasResponse(n.pipe)) cut = true;
        out.push(n);
      } else if (n.t === "if" || n.t === "with" || n.t === "range") {
        const body = walk(n.list);
        const elseList = n.elseList && !cut ? walk(n.elseList) : undefined;
        out.push({ ...n, list: body, elseList });
      } else out.push(n);
    }
    return out;
  };
  return walk(nodes);
}

/** The action `{{ .Response }}`, which Ollama appends to templates that use neither it nor `.Messages`. */
export const RESPONSE_ACTION: Node = Object.freeze({
  t: "action",
  line: 0,
  pipe: {
    line: 0,
    decl: [],
    isAssign: false,
    cmds: [{ args: [{ t: "field", ident: ["Response"] }] }],
  },
}) as Node;
