/**
 * The interactive shell of `rego run` (without `--server`), as `opa run` has it: queries are
 * evaluated against the loaded policies and data and printed like `eval --format pretty`;
 * rules typed in (`pi := 3.14`, `p if {...}`, several lines until the braces balance) are
 * added to the current package (`repl` unless `package` says otherwise); `show` prints
 * that package's module, `unset <name>` removes a rule, `input := <term>` sets the input,
 * `data`/`input` show the documents, `help` lists this, `exit` (or end of input) leaves.
 *
 * Every change recompiles everything; a change that does not compile is refused with its
 * errors and the previous state kept.
 */
import type { PolicyEngine, QueryOptions } from "../../engine.js";
import type { LoadedFiles } from "../../loader/load-paths.js";
import { parseModule, parseQuery } from "../../syntax/module-parser.js";
import type { Value } from "../../value/value.js";
import { describeFailure, isExpectedFailure } from "../error-report.js";
import { formatEvalResults } from "../eval-output.js";
import { type LoadedEngine, reloadEngine } from "../watch.js";
import { bracketBalance, classify, type Statement } from "./repl-input.js";

const HELP = `Commands:
  <query>              evaluate a query, e.g. data.example.allow or x := [1, 2][_]
  <rule>               define a rule in the current package, e.g. pi := 3.14 or p if { ... }
                       (a rule may span several lines: input continues until braces balance)
  package <path>       make <path> the current package (default repl)
  import <path>        add an import to the current package
  input := <term>      set the input document
  data                 show the data document (policies and data files)
  input                show the input document
  show                 show the rules of the current package
  unset <name>         remove the rules named <name> from the current package
  help                 show this help
  exit                 leave the shell (end of input does too)
`;

/** One statement that defined rules, with the rule names it defined. */
interface Definition {
  names: string[];
  text: string;
}

interface ReplModule {
  imports: string[];
  definitions: Definition[];
}

/** Where the REPL writes: results on `out`, errors and notices on `err`. */
export interface ReplOutput {
  out(text: string): void;
  err(text: string): void;
}

/** The REPL's state and statement handling, apart from terminal I/O. */
export class Repl {
  private modules = new Map<string, ReplModule>([["repl", { imports: [], definitions: [] }]]);
  private current = "repl";
  private buffer: string[] = [];
  private input: Value | undefined;

  private constructor(
    private readonly paths: readonly string[],
    private readonly v0: boolean,
    private loaded: LoadedEngine,
    private readonly output: ReplOutput,
  ) {}

  /** Loads `paths`; undefined (errors already reported) when they do not load. */
  static start(paths: readonly string[], v0: boolean, output: ReplOutput): Repl | undefined {
    const r = reloadEngine(paths, v0);
    if (!r.ok) {
      output.err(`${r.error}\n`);
      return undefined;
    }
    return new Repl(paths, v0, r.loaded, output);
  }

  /** `> ` for a new statement, `| ` while one is being continued. */
  prompt(): string {
    return this.buffer.length > 0 ? "| " : "> ";
  }

  /** Handles one line of input; false when the shell should exit. */
  line(text: string): boolean {
    const statement = this.complete(text);
    return statement === undefined || this.run(classify(statement));
  }

  /**
   * `line` for the interactive shell: queries are evaluated asynchronously, so builtins that
   * reach the network (`http.send`, `net.lookup_ip_addr`) work there.
   */
  async lineAsync(text: string): Promise<boolean> {
    const statement = this.complete(text);
    if (statement === undefined) return true;
    const s = classify(statement);
    if (s.kind !== "query") return this.run(s);
    try {
      const results = await this.engine().queryAsync(s.text, this.queryOptions(this.input));
      this.output.out(formatEvalResults(results, "pretty"));
    } catch (e) {
      this.report(e);
    }
    return true;
  }

  /** The statement the buffered lines make, or undefined while brackets are still open. */
  private complete(text: string): string | undefined {
    this.buffer.push(text);
    const statement = this.buffer.join("\n");
    if (bracketBalance(statement) > 0) return undefined;
    this.buffer = [];
    return statement;
  }

  /** Loads the files again (for --watch); the REPL's own rules are kept. */
  reload(): string {
    const r = reloadEngine(this.paths, this.v0, (files) => this.withModules(files, this.modules));
    if (!r.ok) return `reload failed, keeping the last good policies and data:\n${r.error}\n`;
    this.loaded = r.loaded;
    return `reloaded ${r.loaded.files.modules.length} policy file(s) and data\n`;
  }

  private run(s: Statement): boolean {
    switch (s.kind) {
      case "empty":
        return true;
      case "command":
        return this.command(s.name, s.arg);
      case "package":
        this.current = s.path.replace(/^data\./, "");
        if (!this.modules.has(this.current))
          this.modules.set(this.current, { imports: [], definitions: [] });
        return true;
      case "import":
        this.change((m) => ({ ...m, imports: [...m.imports, s.text] }));
        return true;
      case "input":
        this.setInput(s.term);
        return true;
      case "query":
        this.query(s.text);
        return true;
      case "rules":
        this.define(s.text, s.queryError);
        return true;
    }
  }

  private command(name: string, arg: string): boolean {
    switch (name) {
      case "exit":
      case "quit":
        return false;
      case "help":
        this.output.out(HELP);
        return true;
      case "show":
        this.output.out(this.moduleText(this.current, this.module()));
        return true;
      default: {
        const m = this.module();
        const kept = m.definitions.filter((d) => !d.names.includes(arg));
        if (kept.length === m.definitions.length)
          this.output.err(`warning: no matching rules in package ${this.current}\n`);
        else this.change(() => ({ ...m, definitions: kept }));
        return true;
      }
    }
  }

  private module(): ReplModule {
    return this.modules.get(this.current) as ReplModule;
  }

  private fileName(pkg: string): string {
    return pkg === "repl" ? "repl" : `repl:${pkg}`;
  }

  private moduleText(pkg: string, m: ReplModule): string {
    const parts = [`package ${pkg}\n`];
    if (m.imports.length > 0) parts.push(`${m.imports.join("\n")}\n`);
    for (const d of m.definitions) parts.push(`${d.text}\n`);
    return parts.join("\n");
  }

  private withModules(files: LoadedFiles, modules: Map<string, ReplModule>): LoadedFiles {
    const extra = [...modules].map(([pkg, m]) => ({
      file: this.fileName(pkg),
      source: this.moduleText(pkg, m),
    }));
    return { ...files, modules: [...files.modules, ...extra] };
  }

  /** Applies a change to the current package if everything still compiles. */
  private change(f: (m: ReplModule) => ReplModule): boolean {
    const next = new Map(this.modules);
    next.set(this.current, f(this.module()));
    const r = reloadEngine(this.paths, this.v0, (files) => this.withModules(files, next));
    if (!r.ok) {
      this.output.err(`${r.error}\n`);
      return false;
    }
    this.modules = next;
    this.loaded = r.loaded;
    return true;
  }

  /** Names of the rules `text` defines, and whether one replaces earlier ones (`:=`). */
  private ruleNames(text: string): { names: string[]; replace: boolean } {
    const header = `package ${this.current}\n${this.module().imports.join("\n")}\n`;
    const m = parseModule(this.fileName(this.current), header + text, this.v0);
    const names = m.rules.map((r) => String((r.ref[0] as { value?: unknown }).value));
    return { names, replace: m.rules.some((r) => r.assign && !r.isDefault) };
  }

  private define(text: string, queryError: unknown): void {
    let parsed: { names: string[]; replace: boolean };
    try {
      parsed = this.ruleNames(text);
    } catch (e) {
      const ruleLike = /\b(if|contains|default|else)\b|\{|:=/.test(text);
      this.report(queryError !== undefined && !ruleLike ? queryError : e);
      return;
    }
    const { names, replace } = parsed;
    const existed = this.module().definitions.some((d) => d.names.some((n) => names.includes(n)));
    const ok = this.change((m) => ({
      ...m,
      definitions: [
        ...m.definitions.filter((d) => !replace || !d.names.some((n) => names.includes(n))),
        { names, text },
      ],
    }));
    if (!ok) return;
    const verb = existed && replace ? "re-defined" : "defined";
    for (const name of [...new Set(names)])
      this.output.out(
        `Rule '${name}' ${verb} in package ${this.current}. Type 'show' to see rules.\n`,
      );
  }

  private evaluate(text: string, input: Value | undefined) {
    return this.engine().query(text, this.queryOptions(input));
  }

  private queryOptions(input: Value | undefined): QueryOptions {
    return {
      input,
      package: this.current.split("."),
      print: (message) => this.output.err(`${message}\n`),
    };
  }

  private engine(): PolicyEngine {
    return this.loaded.engine;
  }

  private query(text: string): void {
    try {
      this.output.out(formatEvalResults(this.evaluate(text, this.input), "pretty"));
    } catch (e) {
      this.report(e);
    }
  }

  private setInput(term: string): void {
    try {
      parseQuery(term);
      const [first] = this.evaluate(term, this.input);
      const value = first?.expressions[0]?.value;
      if (value === undefined) this.output.err("error: the input term is undefined\n");
      else this.input = value;
    } catch (e) {
      this.report(e);
    }
  }

  private report(e: unknown): void {
    if (!isExpectedFailure(e)) throw e;
    this.output.err(describeFailure(e));
  }
}
