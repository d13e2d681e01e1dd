/**
 * Prints a whole module: comments above the package, the package, then imports and rules in
 * source order, as OPA's printer does (an import below rules stays there). Each run of imports
 * is sorted within the groups the source separated by blank lines; rules are one blank line
 * apart except adjacent one-line rules, which stay together.
 */
import { type Import, keywords, type Module, type Rule, type Term } from "../ast/nodes.js";
import { ExprPrinter } from "./expr-printer.js";
import { compareImports, type ImportLine } from "./imports.js";

export class ModulePrinter extends ExprPrinter {
  writeModule(module: Module, imports: ImportLine[]): void {
    this.comments.insert(this.w, module.pkgLoc.row);
    this.w.startLine();
    this.w.write("package ");
    const [first, ...rest] = module.pkg;
    this.w.write(first ?? "");
    const pkgText = this.text(module.pkgLoc);
    for (const name of rest) {
      // A key written quoted (`test["if"]`) keeps its brackets when it is a keyword.
      const quoted = pkgText.indexOf(`[${JSON.stringify(name)}]`);
      const start = quoted < 0 ? module.pkgLoc.start : module.pkgLoc.start + quoted + 1;
      this.writeRefKey({ type: "scalar", value: name, loc: { ...module.pkgLoc, start } });
    }
    this.w.blankLine();
    for (const run of sourceRuns(imports, module.rules)) {
      if (run.imports) this.writeImports(run.imports);
      else this.writeRules(run.rules);
    }
    this.comments.flush(this.w);
  }

  private writeImports(imports: ImportLine[]): void {
    // A comment on an import's row stays with that import when its group is sorted.
    const trailing = new Map(imports.map((i) => [i, this.comments.takeOnRow(i.row)]));
    const groups: ImportLine[][] = [];
    for (const imp of [...imports].sort((a, b) => a.row - b.row)) {
      const group = groups.at(-1);
      const last = group?.at(-1);
      if (group && last && imp.row - last.row <= 1) group.push(imp);
      else groups.push([imp]);
    }
    for (const group of groups) {
      this.comments.insert(this.w, (group[0] as ImportLine).row);
      for (const imp of group.sort(compareImports)) {
        this.w.startLine();
        this.w.write("import ");
        this.writeImportPath(imp.imp);
        if (imp.imp.alias) this.w.write(` as ${imp.imp.alias}`);
        const c = trailing.get(imp);
        if (c) this.w.write(` ${c.display}`);
        this.w.endLine();
      }
      this.w.blankLine();
    }
  }

  private writeImportPath(imp: Import): void {
    const p: Term = imp.path;
    if (p.type === "ref") this.writeRef(p.head, p.path);
    else this.writeTerm(p);
  }

  private writeRules(rules: Rule[]): void {
    rules.forEach((rule, i) => {
      this.comments.insert(this.w, rule.loc.row);
      this.writeRule(rule, false);
      const next = rules[i + 1];
      const adjacent = next && next.loc.row === rule.loc.row + 1;
      if (adjacent && this.groupable(rule, true) && this.groupable(next, false)) {
        if (this.w.inline) this.w.endLine();
        return;
      }
      this.w.blankLine();
    });
  }

  /**
   * Rules OPA v1.16 keeps on adjacent lines when the source had them so: at most one body
   * expression, not default. The rule above must also print as one line (no else, no body of
   * a lone set, as newer OPA checks), or a second pass would part them.
   */
  private groupable(rule: Rule, above: boolean): boolean {
    if (rule.body.length > 1 || rule.isDefault) return false;
    const [first] = rule.body;
    if (above && (rule.elseRule || (first && isSetExpr(first)))) return false;
    return (this.style.regoV1 || this.style.ifs) && (this.style.contains || rule.kind !== "multi");
  }

  private writeRule(rule: Rule, isElse: boolean): void {
    if (!isElse) this.w.startLine();
    if (rule.isDefault) this.w.write("default ");
    // A body that is just `true` is no body: OPA writes the rule as a constant.
    const constant = !rule.elseRule && isTrueBody(rule.body) && !isElse;
    this.writeHead(rule, isElse, constant);
    const first = constant ? undefined : rule.body[0];
    if (!first) {
      if (rule.elseRule) this.writeElse(rule, rule.elseRule);
      else this.w.endLine();
      return;
    }
    const usesIf =
      (this.style.regoV1 || this.style.ifs) && (this.style.contains || rule.kind !== "multi");
    if (usesIf) {
      this.w.write(" if");
      if (rule.body.length === 1 && first.loc.row === this.headEndRow(rule) && !isSetExpr(first)) {
        this.w.write(" ");
        this.writeExpr(first);
        this.w.endLine();
        if (rule.elseRule) this.writeElse(rule, rule.elseRule);
        return;
      }
    }
    this.w.write(" {");
    this.w.endLine();
    this.w.up();
    // After `if {` a leading `a | b` would read as a set comprehension. OPA leaves it bare in
    // an else body, which its parser reads as a body; ours reads `else if {` as `p if {`.
    if (usesIf) this.unionLead = first;
    this.writeBody(rule.body);
    this.comments.insert(this.w, this.endRow(rule.loc));
    this.w.down();
    this.w.startLine();
    this.w.write("}");
    if (rule.elseRule) this.writeElse(rule, rule.elseRule);
  }

  /**
   * ` else` after the closing brace when the source had it there; on a line of its own,
   * after a blank line, when the source started a line with it (or had comments above it).
   */
  private writeElse(rule: Rule, elseRule: Rule): void {
    const src = this.map.source;
    const lineStart = src.lastIndexOf("\n", elseRule.loc.start - 1) + 1;
    const startsLine = src.slice(lineStart, elseRule.loc.start).trim() === "";
    const inline = elseRule.loc.row > rule.loc.row && !startsLine;
    const commentAbove = this.comments.anyBefore(elseRule.loc.row);
    if (inline && !commentAbove) {
      if (!this.w.inline) this.w.startLine();
      this.w.write(" ");
    } else {
      this.w.blankLine();
      this.comments.insert(this.w, elseRule.loc.row);
      this.w.startLine();
    }
    this.writeRule(elseRule, true);
  }

  private writeHead(rule: Rule, isElse: boolean, constant: boolean): void {
    if (isElse) this.w.write("else");
    else this.writeHeadRef(rule.ref);
    if (rule.args && !isElse) {
      this.w.write("(");
      this.writeArgs(rule.args, this.argsLoc(rule, rule.args));
      this.w.write(")");
    }
    if (rule.kind === "multi" && rule.key && !isElse) {
      if (this.style.contains) {
        this.w.write(" contains ");
        this.writeTerm(rule.key);
      } else {
        this.w.write("[");
        this.writeTerm(rule.key);
        this.w.write("]");
      }
    }
    const value = rule.value;
    const op = rule.assign || this.style.regoV1 ? " := " : " = ";
    // A bare head (`c.d.e`) is a constant `true`; Rego v1 output says so (not for functions).
    const bare =
      this.style.regoV1 && !isElse && !rule.elseRule && rule.body.length === 0 && !rule.args;
    if ((constant || bare) && !value && rule.kind !== "multi") {
      this.w.write(`${op}true`);
      return;
    }
    const implicitTrue =
      value?.type === "scalar" && value.value === true && !rule.isDefault && !isElse;
    if (!value || (implicitTrue && rule.body.length > 0 && !constant)) return;
    this.w.write(op);
    this.writeTerm(value);
  }

  /** `p`, `p.q.r`, or (without ref heads anywhere) `p[k]` with the key as a term. */
  private writeHeadRef(ref: Term[]): void {
    const [name, ...path] = ref;
    this.w.write(name?.type === "scalar" ? String(name.value) : "");
    // A keyword name (`default.foo`) reads as a rule head only when followed by `.`.
    if (
      this.style.refHeads ||
      path.length !== 1 ||
      keywords.has(name?.type === "scalar" ? String(name.value) : "")
    ) {
      for (const key of path) this.writeRefKey(key);
      return;
    }
    const key = path[0] as Term;
    this.w.write("[");
    if (key.type === "scalar" && typeof key.value === "string")
      this.w.write(JSON.stringify(key.value));
    else this.writeTerm(key);
    this.w.write("]");
  }

  /** From the rule's start to the `)` closing its arguments. */
  private argsLoc(rule: Rule, args: Term[]): Rule["loc"] {
    const last = args.at(-1);
    const from = last ? last.loc.end : rule.loc.start;
    const close = this.map.source.indexOf(")", from);
    return { ...rule.loc, end: close < 0 ? rule.loc.end : close + 1 };
  }

  /** The row the head ends on: where its value, key, arguments or name end. */
  private headEndRow(rule: Rule): number {
    if (!rule.value && !rule.key && rule.args) return this.endRow(this.argsLoc(rule, rule.args));
    const last = rule.value ?? rule.key ?? rule.ref.at(-1);
    return last ? this.endRow(last.loc) : rule.loc.row;
  }
}

/** `if true` / `{ true }`: a body of the single plain literal `true`. */
function isTrueBody(body: Rule["body"]): boolean {
  const [e] = body;
  return (
    body.length === 1 &&
    e?.type === "term" &&
    !e.negated &&
    e.with.length === 0 &&
    e.term.type === "scalar" &&
    e.term.value === true
  );
}

/** A body of one set literal must keep its braces (`p if { {x} }`). */
function isSetExpr(e: Rule["body"][number]): boolean {
  return e.type === "term" && !e.negated && e.term.type === "set";
}

/** A run of imports, or of rules, with nothing of the other kind between them in the source. */
type SourceRun =
  | { imports: ImportLine[]; rules?: undefined }
  | { imports?: undefined; rules: Rule[] };

/**
 * Imports and rules in source order, cut into runs of one kind. An import added by the
 * formatter sorts by its row; on a row shared with a rule, the import comes first.
 */
function sourceRuns(imports: ImportLine[], rules: Rule[]): SourceRun[] {
  const items: { row: number; imp?: ImportLine; rule?: Rule }[] = [
    ...imports.map((imp) => ({ row: imp.row, imp })),
    ...rules.map((rule) => ({ row: rule.loc.row, rule })),
  ].sort((a, b) => a.row - b.row);
  const runs: SourceRun[] = [];
  for (const item of items) {
    const last = runs.at(-1);
    if (item.imp) {
      if (last?.imports) last.imports.push(item.imp);
      else runs.push({ imports: [item.imp] });
    } else if (item.rule) {
      if (last?.rules) last.rules.push(item.rule);
      else runs.push({ rules: [item.rule] });
    }
  }
  return runs;
}
