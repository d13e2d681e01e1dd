/**
 * Module-level productions: package, imports, rules (with `default`, `else`, `contains`,
 * ref heads and functions), in Rego v1 or v0 syntax. Also parses standalone queries.
 */
import { isGround } from "../ast/ground.js";
import type { Body, Expr, Import, Loc, Module, Rule, Term } from "../ast/nodes.js";
import { RegoError, RegoErrorList } from "../errors.js";
import { attachAnnotations } from "./annotations.js";
import { SourceMap } from "./lexer.js";
import {
  isStackOverflow,
  maxNesting,
  nestingError,
  nestingMessage,
  ruleTooDeep,
  tooDeep,
} from "./nesting.js";
import { ExprParser, isOperator } from "./parser.js";

const futureKeywords = ["in", "if", "contains", "every"];
/** OPA's keywords in Rego v1, none of which may name a rule there. */
const v1Keywords = new Set([
  ...["not", "package", "import", "as", "default", "else", "with", "some"],
  ...futureKeywords,
]);

class ModuleParser extends ExprParser {
  constructor(
    map: SourceMap,
    readonly v0: boolean,
    /** Rego v1's syntax required of a v0 module (OPA's RegoV0CompatV1); rego.v1 sets it. */
    private v0v1 = false,
  ) {
    super(map, new Set(v0 ? [] : futureKeywords));
  }

  parseModule(): Module {
    if (this.tok.text !== "package") throw this.map.error(this.tok.start, "package expected");
    const pkgStart = this.next().start;
    const pkgTerm = this.parseTerm();
    if (this.mayNestTooDeep) this.checkNesting(tooDeep([pkgTerm]));
    const pkg = refToPath(pkgTerm, this.map);
    const module: Module = {
      file: this.map.file,
      pkg,
      pkgLoc: this.loc(pkgStart),
      imports: [],
      rules: [],
      v0: this.v0,
      annotations: [],
    };
    // OPA's parser takes an import anywhere after the package, even between rules.
    while (this.tok.kind !== "eof") {
      if (this.isKw("import")) {
        module.imports.push(this.parseImport());
        continue;
      }
      const rules = this.parseRule(module);
      if (this.mayNestTooDeep) for (const r of rules) this.checkNesting(ruleTooDeep(r));
      module.rules.push(...rules);
    }
    attachAnnotations(module, this.comments);
    if (this.v0 && this.v0v1) module.v0v1 = true;
    return module;
  }

  private parseImport(): Import {
    const start = this.next().start;
    const path = this.parseTerm();
    if (this.mayNestTooDeep) this.checkNesting(tooDeep([path]));
    let alias: string | undefined;
    if (this.isKw("as")) {
      this.next();
      alias = this.next().text;
    }
    const names = refToPath(path, this.map);
    if (names[0] === "future") {
      for (const k of this.futureImport(names, alias, path.loc.start)) this.keywords.add(k);
    } else if (names[0] === "rego" && names[1] === "v1") {
      for (const k of futureKeywords) this.keywords.add(k);
      // OPA holds a v0 module importing rego.v1 to v1's syntax from here on.
      this.v0v1 = true;
    } else if (names[0] !== "data" && names[0] !== "input") {
      throw this.map.error(start, "unexpected import path, must begin with one of: {data, input}");
    }
    return { path, alias, loc: this.loc(start) };
  }

  /**
   * The keywords `import future.keywords[.x]` turns on, refused as OPA refuses them: another
   * `future` path, more than one keyword, one that is not a future keyword, or an alias.
   */
  private futureImport(names: string[], alias: string | undefined, at: number): string[] {
    if (names[1] !== "keywords" || names.length > 3) {
      throw this.map.error(at, "invalid import, must be `future.keywords`");
    }
    if (alias !== undefined) throw this.map.error(at, "`future` imports cannot be aliased");
    const keyword = names[2];
    if (keyword === undefined) return futureKeywords;
    if (!futureKeywords.includes(keyword)) {
      const known = [...futureKeywords].sort().join(" ");
      throw this.map.error(at, `unexpected keyword, must be one of [${known}]`);
    }
    return [keyword];
  }

  /** One rule (with its else chain). */
  private parseRule(module: Module): Rule[] {
    const start = this.tok.start;
    // A keyword that only continues an expression (`} with x as 1`) cannot start a rule.
    for (const word of ["with", "as", "else"]) {
      if (this.isKw(word)) throw this.map.error(start, `unexpected ${word} keyword`);
    }
    const isDefault = this.isKw("default");
    if (isDefault) this.next();
    let headTerm = this.parseTerm();
    // OPA allows a space between a function's name and its operands in a head: `f (x) := x`.
    if (this.isSym("(") && !this.tok.newline && isOperator(headTerm)) {
      headTerm = this.parseCall(headTerm, start);
    }
    // OPA's lexer reads `not` as a keyword, never a rule name: `not p` at the top of a
    // module is a negated expression, which cannot be a rule.
    if (!isDefault && headTerm.type === "var" && headTerm.name === "not") {
      throw this.map.error(start, "negated expressions cannot be used for rule head");
    }
    let args: Term[] | undefined;
    let refTerm = headTerm;
    if (headTerm.type === "call") {
      args = headTerm.args;
      refTerm = headTerm.op;
    }
    const ref = headRef(refTerm, this.map);
    const rule: Rule = {
      kind: args ? "func" : "single",
      ref,
      args,
      assign: false,
      isDefault,
      body: [],
      loc: this.loc(start),
      module,
    };
    if (this.isKw("contains") && !args) {
      this.next();
      rule.kind = "multi";
      rule.key = this.parseIn(true);
    } else if (this.isSym(":=") || this.isSym("=")) {
      rule.assign = this.next().text === ":=";
      rule.value = this.parseIn(true);
    } else if (this.v0 && this.v0v1 && !args && ref.length === 2 && !isDefault) {
      // v0 reads `p[x]` as a partial set, v1 as `p[x] = true`: both readings must agree.
      throw this.map.error(start, "`contains` keyword is required for partial set rules");
    } else if (this.v0 && !args && ref.length > 1 && !isDefault && !this.isKw("if")) {
      this.readV0PartialSet(rule, ref);
    }
    if (isDefault) {
      if (!rule.value) throw this.map.error(start, "default rule must have a value");
      const bad = nonConstantPart(rule.value);
      if (bad) {
        throw this.map.error(start, `illegal default rule (value cannot contain ${bad})`);
      }
      rule.loc = this.loc(start);
      return [rule];
    }
    rule.body = this.parseRuleBody();
    if (rule.body.length === 0 && rule.kind === "single" && !rule.value) {
      this.refuseBareHead(start, ref);
    }
    if (this.holdsV1Syntax && ref.length === 1) this.refuseKeywordName(start, ref);
    rule.loc = this.loc(start);
    if (this.isKw("else")) this.refuseElse(rule);
    let tail = rule;
    while (this.isKw("else")) {
      const es = this.next().start;
      const elseRule: Rule = { ...rule, elseRule: undefined, value: undefined, body: [] };
      if (this.isSym(":=") || this.isSym("=")) {
        this.next();
        elseRule.value = this.parseIn(true);
      }
      elseRule.body = this.parseRuleBody();
      elseRule.loc = this.loc(es);
      tail.elseRule = elseRule;
      tail = elseRule;
    }
    return [rule, ...this.chainedBodies(rule)];
  }

  /** Rego v1's syntax applies: a v1 module, or a v0 one held to it (`rego.v1`, `--v0-v1`). */
  private get holdsV1Syntax(): boolean {
    return !this.v0 || this.v0v1;
  }

  /**
   * A head with neither value nor body, such as a stray `allow` line: OPA reads it as an
   * expression statement, and refuses to make a rule of it where it names no document.
   * Without this a lone `allow` after `default allow := false` would define allow = true.
   */
  private refuseBareHead(start: number, ref: Term[]): void {
    if (ref.length === 1) throw this.map.error(start, "var cannot be used for rule name");
    if (!this.holdsV1Syntax) return; // v0: `p.q.r` is a rule whose value is true
    if (ref.length === 2) {
      throw this.map.error(start, "`contains` keyword is required for partial set rules");
    }
    throw this.map.error(start, "rule must have value assignment and/or body declaration");
  }

  /**
   * As OPA: `else` gives one value when the body fails, so it cannot follow a rule that adds
   * members (`contains`) or one whose head has variables (`p[x] := ...`).
   */
  private refuseElse(rule: Rule): void {
    if (rule.ref.length > 1 && !rule.ref.every(isGround)) {
      throw this.map.error(
        this.tok.start,
        "else keyword cannot be used on rules with variables in head",
      );
    }
    if (rule.kind === "multi") {
      throw this.map.error(this.tok.start, "else keyword cannot be used on multi-value rules");
    }
  }

  /** Rego v1 refuses a keyword as a rule's name (`if := 1`). */
  private refuseKeywordName(start: number, ref: Term[]): void {
    const name = ref[0]?.type === "scalar" ? String(ref[0].value) : "";
    if (v1Keywords.has(name)) {
      throw this.map.error(start, `${name} keyword cannot be used for rule name`);
    }
  }

  /** `p { a } { b }`: each further body is one more rule with the same head, as in OPA. */
  private chainedBodies(rule: Rule): Rule[] {
    const more: Rule[] = [];
    while (this.isSym("{") && rule.body.length > 0) {
      if (rule.elseRule) throw this.unexpected("expected else keyword");
      const start = this.tok.start;
      const body = this.parseBlock();
      const { ref, args, key, value } = structuredClone({
        ref: rule.ref,
        args: rule.args,
        key: rule.key,
        value: rule.value,
      });
      more.push({ ...rule, ref, args, key, value, body, loc: this.loc(start) });
    }
    return more;
  }

  /**
   * Rego v0: a two-term head with neither value nor `if`, `p[k] { ... }`, is a partial set
   * rule whose member is `k`, whatever term `k` is (`p["foo"]` and `p.foo` included), as
   * OPA v0 reads it. Longer heads (`p.q[x] { ... }`) stay single-value rules, value true.
   */
  private readV0PartialSet(rule: Rule, ref: Term[]): void {
    if (ref.length !== 2) return;
    rule.kind = "multi";
    rule.key = ref[1] as Term;
    rule.ref = ref.slice(0, 1);
  }

  /** `if { ... }`, `if literal`, `{ ... }` or nothing (an always-true body). */
  private parseRuleBody(): Body {
    if (this.isKw("if")) {
      this.next();
      const afterIf = this.mark();
      if (this.isSym("{")) {
        // As OPA: `if {` is read as one literal first (an object, a comprehension such as
        // `{ 1 | 1 }`, a comparison of sets); only a set literal, never false, means a body.
        const literal = this.attempt(() => this.parseLiteral());
        if (literal && !isSetLiteral(literal)) return [literal];
        if (literal) this.reset(afterIf);
        return this.parseBlock();
      }
      return [this.parseLiteral()];
    }
    // A body may start on a later line (after comments, say), as OPA reads it; and the next
    // statement may follow on the same line (`x := 1 y := 2`).
    if (this.isSym("{")) {
      if (!this.v0 || this.v0v1)
        throw this.map.error(this.tok.start, "`if` keyword is required before rule body");
      return this.parseBlock();
    }
    return [];
  }

  private parseBlock(): Body {
    this.expect("{");
    const body = this.parseQuery("}");
    this.expect("}");
    if (body.length === 0) throw this.map.error(this.prevEnd() - 1, "found empty body");
    return body;
  }

  parseStandaloneQuery(): Body {
    const body = this.parseQuery();
    if (body.length === 0) throw this.map.error(0, "empty query cannot be evaluated");
    if (this.mayNestTooDeep) this.checkNesting(tooDeep(body));
    return body;
  }

  /**
   * Every level of nesting takes at least one character of source, so a source shorter than
   * the limit needs no check of its tree.
   */
  private get mayNestTooDeep(): boolean {
    return this.map.source.length >= maxNesting;
  }

  /** Refuses a tree nested deeper than the limit, at the first node too deep. */
  private checkNesting(at: Loc | undefined): void {
    if (at) throw nestingError(at);
  }

  /**
   * The error for a JavaScript stack overflow while parsing (the nesting limit should come
   * first; this is the backstop): a parse error at the current token, never a RangeError.
   */
  overflowError(): RegoError {
    return this.map.error(this.tok.start, nestingMessage());
  }
}

/**
 * The kind of the first var, ref or call in a default rule's value outside comprehensions
 * (`var`, `ref`, `call`), which OPA's parser refuses there; undefined when there is none.
 */
function nonConstantPart(t: Term): string | undefined {
  switch (t.type) {
    case "var":
    case "ref":
    case "call":
      return t.type;
    case "array":
    case "set":
      for (const x of t.items) {
        const bad = nonConstantPart(x);
        if (bad) return bad;
      }
      return undefined;
    case "object":
      for (const [k, v] of t.entries) {
        const bad = nonConstantPart(k) ?? nonConstantPart(v);
        if (bad) return bad;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** True for a literal that is just a set literal, `{ x }`: in a rule head, a body. */
function isSetLiteral(e: Expr): boolean {
  // As OPA, whatever follows the set (`{ x } with ...`): a set is never false, so the braces
  // are the body, and a `with` after it is not part of the rule.
  return e.type === "term" && !e.negated && e.term.type === "set";
}

/** `a.b["c"]` → ["a", "b", "c"]; a package or import path. */
function refToPath(t: Term, map: SourceMap): string[] {
  if (t.type === "var") return [t.name];
  if (t.type !== "ref" || t.head.type !== "var") throw map.error(t.loc.start, "invalid path");
  const out = [t.head.name];
  for (const p of t.path) {
    if (p.type !== "scalar" || typeof p.value !== "string") {
      throw map.error(p.loc.start, "invalid path: path elements must be strings");
    }
    out.push(p.value);
  }
  return out;
}

/** A rule head as a list of terms, its first a string naming the rule. */
function headRef(t: Term, map: SourceMap): Term[] {
  if (t.type === "var") return [{ type: "scalar", value: t.name, loc: t.loc }];
  if (t.type === "ref" && t.head.type === "var") {
    return [{ type: "scalar", value: t.head.name, loc: t.head.loc }, ...t.path];
  }
  throw map.error(t.loc.start, `${valueName(t)} cannot be used for rule name`);
}

/** What OPA calls a term's kind in its messages (`object cannot be used for rule name`). */
function valueName(t: Term): string {
  switch (t.type) {
    case "scalar":
      if (t.value === null) return "null";
      if (typeof t.value === "boolean") return "boolean";
      return typeof t.value === "string" ? "string" : "number";
    case "arraycompr":
      return "arraycomprehension";
    case "setcompr":
      return "setcomprehension";
    case "objectcompr":
      return "objectcomprehension";
    case "template":
      return "templatestring";
    default:
      return t.type;
  }
}

/**
 * Parses one module as Rego v1, or v0 (`v0`), or v0 that must also be valid v1 (`v0` and
 * `v0v1`, as `rego check --v0-v1`); throws RegoErrorList with a rego_parse_error.
 */
export function parseModule(file: string, source: string, v0 = false, v0v1 = false): Module {
  const map = new SourceMap(file, source);
  let parser: ModuleParser | undefined;
  try {
    parser = new ModuleParser(map, v0, v0v1);
    return parser.parseModule();
  } catch (e) {
    throw asErrorList(e, map, parser);
  }
}

/** Parses a query (literals separated by `;` or newlines). */
export function parseQuery(source: string, file = "query"): Body {
  const map = new SourceMap(file, source);
  let parser: ModuleParser | undefined;
  try {
    parser = new ModuleParser(map, false);
    return parser.parseStandaloneQuery();
  } catch (e) {
    throw asErrorList(e, map, parser);
  }
}

/** Parses a single term (for `input_term`). */
export function parseTermText(source: string, file = "term"): Term {
  const body = parseQuery(source, file);
  const first = body[0];
  if (body.length !== 1 || !first || first.type !== "term") {
    throw new RegoErrorList([new SourceMap(file, source).error(0, "expected a single term")]);
  }
  return first.term;
}

function asErrorList(e: unknown, map: SourceMap, parser: ModuleParser | undefined): unknown {
  if (e instanceof RegoErrorList) return e;
  if (e instanceof RegoError) return new RegoErrorList([e]);
  if (isStackOverflow(e)) {
    return new RegoErrorList([parser ? parser.overflowError() : map.error(0, nestingMessage())]);
  }
  // Any other RangeError (an array or string too long for the engine) is the input's fault.
  if (e instanceof RangeError)
    return new RegoErrorList([map.error(0, `input too large: ${e.message}`)]);
  return e;
}
