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
  /** Its source tokens, space-separated: the node Go names in execution errors. */
  text: string;
}

/** `$a, $b := cmd | cmd`: declarations (or an assignment) and commands. */
export interface Pipe {
  line: number;
  /** Where its first token starts in the source (Go's error position). */
  pos: number;
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

/** A parsed template: its main body, the templates it defines (`define`, `block`), its source. */
export interface Tree {
  root: Node[];
  defines: Map<string, Node[]>;
  source: string;
}
