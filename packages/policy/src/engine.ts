/**
 * The public face of the Rego engine: load modules and data, compile once, then evaluate
 * queries or data references many times.
 */
import type { Body, Expr, Loc, Module, Term, TermExpr } from "./ast/nodes.js";
import { displayName, shallowExprVars } from "./ast/walk.js";
import {
  type ExternalCall,
  ExternalCalls,
  PendingExternalCall,
} from "./builtins/external-calls.js";
import { InterQueryCache } from "./builtins/http-send-cache.js";
import { type CompiledPolicy, Compiler } from "./compile/compiler.js";
import { dataConflicts } from "./compile/data-conflicts.js";
import { capturedExpression } from "./compile/query-capture.js";
import type { CheckOptions } from "./compile/strict/index.js";
import type { RuleNode } from "./compile/tree.js";
import { DEFAULT_MAX_COLLECTION_SIZE } from "./config.js";
import { collectionTooLarge, internalError, RegoError, RegoErrorList } from "./errors.js";
import { Evaluator } from "./eval/evaluator.js";
import type { FunctionTable } from "./eval/functions.js";
import type { EvalTracer } from "./eval/state.js";
import type { Env } from "./eval/terms.js";
import { indexValue, upsert } from "./eval/values.js";
import { type PartialResult, partialEvaluate } from "./partial/partial-query.js";
import { parseUnknowns } from "./partial/unknowns.js";
import { parseModule, parseQuery } from "./syntax/module-parser.js";
import { fromJSON, RegoObject, type Value } from "./value/value.js";

/** Engine-wide options. */
export interface EngineOptions {
  /** Parse every module as Rego v0 unless it says otherwise. */
  v0Compatible?: boolean;
  /** Parse every module as Rego v0 that must also be valid Rego v1 (`rego check --v0-v1`). */
  v0v1Compatible?: boolean;
  /** Default for QueryOptions.strictBuiltinErrors. */
  strictBuiltinErrors?: boolean;
  /**
   * Refuse rules that define a path base data already holds (default true), as OPA's
   * `eval`, server and Go API do. OPA's own topdown test harness compiles without this
   * check (base data then shadows the rule), and the compliance runner follows it.
   */
  checkDataConflicts?: boolean;
  /**
   * Where `http.send` keeps responses between queries (`cache`/`force_cache`); engines may
   * share one. Default: a cache of this engine (and of the engines `withData` makes).
   */
  interQueryCache?: InterQueryCache;
  /** Strict mode and capabilities for the compiler (`rego check`). */
  compileChecks?: CheckOptions;
}

/** Options of one evaluation. */
export interface QueryOptions {
  /** The input document; undefined means no input. */
  input?: Value;
  /** Builtin errors halt evaluation instead of making the expression undefined. */
  strictBuiltinErrors?: boolean;
  /** Bound on evaluation time; exceeding it raises eval_cancel_error. */
  timeoutMs?: number;
  /** Cancellation; raises eval_cancel_error. */
  signal?: AbortSignal;
  /**
   * Most elements of one collection (and solutions of one query); past it eval_limit_error.
   * Default DEFAULT_MAX_COLLECTION_SIZE.
   */
  maxCollectionSize?: number;
  /** Sink for `print` output. */
  print?: (message: string) => void;
  /** Fixed clock for tests (nanoseconds since the epoch). */
  nowNs?: bigint;
  /** Receives evaluation events (explain, coverage, profile); see src/trace/. */
  tracer?: EvalTracer;
  /** Package whose rules the query's bare names refer to (the REPL's current package). */
  package?: string[];
}

/** One expression of a query result. */
export interface ExpressionResult {
  value: Value;
  text: string;
  location: { row: number; col: number };
}

/** One solution of a query. */
export interface QueryResult {
  expressions: ExpressionResult[];
  bindings: Map<string, Value>;
}

interface Source {
  file: string;
  source: string;
  v0: boolean;
  /** Parsed for `--v0-v1`: v0 held to Rego v1's syntax too. */
  v0v1?: boolean;
}

/** Operators whose expression value is just "true" (they bind or test, or print). */
const noValueOperators = new Set(["eq", "assign", "print", "internal.print"]);

/** True when a query expression's value is its term's value rather than `true`. */
function hasOwnValue(t: Term, compiler: Compiler): boolean {
  if (t.type !== "call") return true;
  if (noValueOperators.has(t.name)) return false;
  return t.args.length === compiler.arity(t.name);
}

/** The var that holds a captured expression's value (no user var can contain `$`). */
const CAPTURE_VAR = "$value";

/** `term` rewritten to `term = $value`, keeping its `with` modifiers: false is a value too. */
function captureValue(e: TermExpr): TermExpr {
  const v: Term = { type: "var", name: CAPTURE_VAR, loc: e.loc };
  return { ...e, term: { type: "call", name: "eq", op: v, args: [e.term, v], loc: e.loc } };
}

function expressionResult(e: Expr, value: Value, query: string): ExpressionResult {
  return {
    value,
    text: query.slice(e.loc.start, e.loc.end),
    location: { row: e.loc.row, col: e.loc.col },
  };
}

/** True when `terms` still spell `path` (an array may have changed since it was cached). */
function termsMatch(terms: Term[], path: (string | number)[]): boolean {
  if (terms.length !== path.length) return false;
  for (let i = 0; i < path.length; i++) {
    const t = terms[i] as Term;
    if (t.type !== "scalar" || t.value !== path[i]) return false;
  }
  return true;
}

/** The default `print` sink. */
function printToStderr(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Runs an evaluation; any failure that is not a Rego error leaves it as internal_error. */
function guardStack<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw stackError(e);
  }
}

/**
 * The error to raise for `e`: Rego errors stay; anything else (a stack overflow, a bug)
 * becomes internal_error, so that callers see one kind of error and never a raw RangeError.
 */
function stackError(e: unknown): unknown {
  if (e instanceof RegoError || e instanceof RegoErrorList) return e;
  // The asynchronous driver's signal, not a failure.
  if (e instanceof PendingExternalCall) return e;
  return internalError(e);
}

/** Names of builtins that reach the network, as they appear in Rego text. */
const NETWORK_BUILTIN = /\bhttp\.send\b|\bnet\.lookup_ip_addr\b/;

/**
 * Most evaluation rounds (one per distinct network call) of one asynchronous query: each
 * round evaluates the query again, so a policy making thousands of calls is refused.
 */
export const MAX_NETWORK_ROUNDS = 256;

/**
 * Performs `call`, giving up when the query's deadline passes or its signal fires: then
 * the query ends with eval_cancel_error, as when evaluation itself runs out of time.
 */
async function performBounded(
  call: ExternalCall,
  deadline: number | undefined,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(cancelled("caller cancelled query execution"));
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer =
    deadline === undefined
      ? undefined
      : setTimeout(
          () => controller.abort(cancelled("timed out: query evaluation exceeded its time limit")),
          Math.max(0, deadline - Date.now()),
        );
  // Some calls (a DNS lookup) cannot be cut short: stop waiting for them all the same.
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), {
      once: true,
    });
  });
  try {
    return await Promise.race([call.perform(controller.signal), stopped]);
  } catch (e) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw internalError(e);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

function cancelled(message: string): RegoError {
  return new RegoError("eval_cancel_error", message);
}

/** Deep-merges `value` into `base`: objects merge key by key, anything else replaces. */
function mergeData(base: Value | undefined, value: Value): Value {
  if (!(base instanceof RegoObject) || !(value instanceof RegoObject)) return value;
  const out = RegoObject.fromEntries(base.entries());
  for (const [k, v] of value.entries()) out.set(k, mergeData(base.get(k), v));
  return out;
}

/** A Rego engine instance: modules and data, compiled once, evaluated many times. */
export class PolicyEngine {
  private readonly sources: Source[] = [];
  private parsed: Module[] = [];
  private data: Value = new RegoObject();
  private compiled?: {
    policy: CompiledPolicy;
    compiler: Compiler;
    functions: FunctionTable;
    /** Whether some module names a network builtin (worked out on first need). */
    network?: boolean;
  };
  private httpCache: InterQueryCache;
  private readonly refPaths = new Map<string, Term[]>();
  private readonly refPathsByArray = new WeakMap<(string | number)[], Term[]>();

  constructor(readonly options: EngineOptions = {}) {
    this.httpCache = options.interQueryCache ?? new InterQueryCache();
  }

  /** Parses a module; throws RegoErrorList (rego_parse_error, file:line:col) on errors. */
  addModule(file: string, source: string, options?: { v0Compatible?: boolean }): void {
    const v0v1 = this.options.v0v1Compatible === true;
    const v0 = v0v1 || (options?.v0Compatible ?? this.options.v0Compatible ?? false);
    const module = parseModule(file, source, v0, v0v1);
    // A module added again under the same name replaces the earlier one, as in OPA.
    const at = this.sources.findIndex((s) => s.file === file);
    if (at >= 0) {
      this.sources.splice(at, 1);
      this.parsed.splice(at, 1);
    }
    this.sources.push({ file, source, v0, v0v1 });
    this.parsed.push(module);
    this.compiled = undefined;
  }

  /** Merges JSON data into `data` at `path` (e.g. ["a","b"] for data.a.b). */
  addData(path: string[], value: unknown): void {
    const v = fromJSON(value);
    let existing: Value | undefined = this.data;
    for (const key of path)
      existing = existing instanceof RegoObject ? existing.get(key) : undefined;
    const data = upsert(this.data, path, mergeData(existing, v));
    // Data added after compiling may not take a path that a rule defines (OPA refuses it).
    if (this.compiled && this.options.checkDataConflicts !== false) {
      const conflicts = dataConflicts(this.compiled.policy.root, data);
      if (conflicts.length > 0) throw new RegoErrorList(conflicts);
    }
    this.data = data;
  }

  /** Compiles everything added; throws RegoErrorList with every compile error sorted by location. */
  compile(): void {
    // Modules are re-parsed so that compiling twice never sees already-rewritten rules.
    const modules = this.sources.map((s) => parseModule(s.file, s.source, s.v0, s.v0v1));
    const compiler = new Compiler(this.options.compileChecks);
    const policy = compiler.compile(modules);
    if (this.options.checkDataConflicts !== false) {
      const conflicts = dataConflicts(policy.root, this.data);
      if (conflicts.length > 0) throw new RegoErrorList(conflicts);
    }
    this.parsed = modules;
    this.compiled = { policy, compiler, functions: new Map() };
  }

  private ensureCompiled() {
    if (!this.compiled) this.compile();
    return this.compiled as NonNullable<PolicyEngine["compiled"]>;
  }

  private evaluator(options: QueryOptions | undefined): Evaluator {
    const c = this.ensureCompiled();
    return new Evaluator(c.policy.root, this.data, c.functions, c.policy.modules, {
      input: options?.input,
      strict: options?.strictBuiltinErrors ?? this.options.strictBuiltinErrors ?? false,
      print: options?.print ?? printToStderr,
      nowNs: options?.nowNs,
      deadline: options?.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs,
      signal: options?.signal,
      maxCollectionSize: options?.maxCollectionSize ?? DEFAULT_MAX_COLLECTION_SIZE,
      tracer: options?.tracer,
      external: (options as { external?: ExternalCalls } | undefined)?.external,
    });
  }

  /** Evaluates a Rego query string; one entry per solution. */
  query(query: string, options?: QueryOptions): QueryResult[] {
    return guardStack(() => this.runQuery(query, options));
  }

  private runQuery(query: string, options?: QueryOptions): QueryResult[] {
    const c = this.ensureCompiled();
    const parsed = parseQuery(query);
    const body = c.compiler.compileQuery(parsed, options?.package ?? [], this.parsed);
    const ev = this.evaluator(options);
    const names = new Set<string>();
    for (const e of body) shallowExprVars(e, names);
    const visible = [...names].filter(
      (n) => n !== "input" && n !== "data" && !displayName(n).startsWith("_"),
    );
    const results: QueryResult[] = [];
    const env: Env = new Map();
    const captured = capturedExpression(body, c.compiler.arity);
    const evaluated = captured ? [captureValue(captured)] : body;
    ev.evalQuery(evaluated, env, () => {
      if (results.length >= ev.maxCollectionSize) {
        throw collectionTooLarge("query results", results.length + 1, ev.maxCollectionSize);
      }
      const bindings = new Map<string, Value>();
      for (const n of visible) {
        const v = env.get(n);
        if (v !== undefined) bindings.set(displayName(n), v);
      }
      const expressions = captured
        ? [expressionResult(captured, env.get(CAPTURE_VAR) ?? true, query)]
        : this.expressionValues(ev, c.compiler, body, env, query);
      results.push({ expressions, bindings });
      return false;
    });
    return results;
  }

  private expressionValues(
    ev: Evaluator,
    compiler: Compiler,
    body: Body,
    env: Env,
    query: string,
  ): ExpressionResult[] {
    // Expressions the compiler added (operands moved out of a negation) are not reported.
    const written = body.filter((e) => !e.generated);
    return written.map((e) => {
      let value: Value = true;
      if (e.type === "term" && !e.negated && e.with.length === 0 && hasOwnValue(e.term, compiler)) {
        ev.evalTerm(e.term, env, (v) => {
          value = v;
          return true;
        });
      }
      return expressionResult(e, value, query);
    });
  }

  /**
   * `query` for callers that can wait: builtins that reach the network (`http.send`,
   * `net.lookup_ip_addr`) are answered asynchronously without blocking the event loop.
   * Servers and the CLI call this form; the synchronous form never performs network calls.
   */
  async queryAsync(query: string, options?: QueryOptions): Promise<QueryResult[]> {
    if (!this.mayReachNetwork() && !NETWORK_BUILTIN.test(query)) return this.query(query, options);
    return this.evaluateWithNetwork(options, (o) => this.query(query, o));
  }

  /**
   * Partial evaluation (`rego eval --partial`, `POST /v1/compile`): the query evaluated as far
   * as everything but `unknowns` (refs such as "input" or "input.resource") allows.
   */
  partial(
    query: string,
    options: QueryOptions & {
      unknowns?: string[];
      disableInlining?: string[];
      nondeterministicBuiltins?: boolean;
    },
  ): PartialResult {
    const c = this.ensureCompiled();
    const unknowns = parseUnknowns(options.unknowns ?? ["input"]);
    const disableInlining = parseUnknowns(options.disableInlining ?? []).map((p) => p.slice(1));
    const parsed = parseQuery(query);
    const body = c.compiler.compileQuery(parsed, options.package ?? [], this.parsed, true);
    const evaluator = this.evaluator(options);
    const maxQueries = evaluator.maxCollectionSize;
    return guardStack(() =>
      partialEvaluate(
        {
          root: c.policy.root,
          evaluator,
          unknowns,
          disableInlining,
          maxQueries,
          nondeterministicBuiltins: options.nondeterministicBuiltins,
        },
        body,
      ),
    );
  }

  /** `evalRef` for callers that can wait (see `queryAsync`). */
  async evalRefAsync(
    path: (string | number)[],
    options?: QueryOptions,
  ): Promise<Value | undefined> {
    if (!this.mayReachNetwork()) return this.evalRef(path, options);
    return this.evaluateWithNetwork(options, (o) => this.evalRef(path, o));
  }

  /** The cache `http.send` keeps responses in between queries (`cache`, `force_cache`). */
  get interQueryCache(): InterQueryCache {
    return this.httpCache;
  }

  /**
   * True when some module names a network builtin. A text test: a comment can only make it
   * take the (still correct) asynchronous path; no policy reaches a builtin it never names.
   */
  private mayReachNetwork(): boolean {
    const c = this.ensureCompiled();
    if (c.network === undefined)
      c.network = this.sources.some((s) => NETWORK_BUILTIN.test(s.source));
    return c.network;
  }

  /**
   * Evaluates in rounds: a round that meets a network call not answered yet stops with
   * PendingExternalCall; the call is made (awaited, off the evaluation) and the next round
   * finds its answer. Rounds share the clock, the nondeterministic memo and `print` output
   * (nothing is printed twice). With a tracer, the rounds run without it and a last round,
   * every answer known, runs with it, so that explain and coverage see one evaluation.
   */
  private async evaluateWithNetwork<T>(
    options: QueryOptions | undefined,
    run: (options: QueryOptions & { external: ExternalCalls }) => T,
  ): Promise<T> {
    const startMs = Date.now();
    const deadline = options?.timeoutMs === undefined ? undefined : startMs + options.timeoutMs;
    const calls = new ExternalCalls(
      options?.nowNs ?? BigInt(startMs) * 1_000_000n,
      this.httpCache,
      options?.print ?? printToStderr,
    );
    for (let round = 1; ; round++) {
      const roundOptions = {
        ...options,
        nowNs: calls.nowNs,
        print: calls.printer(),
        timeoutMs: deadline === undefined ? undefined : Math.max(0, deadline - Date.now()),
        tracer: undefined,
        external: calls,
      };
      let pending: PendingExternalCall;
      try {
        const result = run(roundOptions);
        if (!options?.tracer) return result;
        return run({ ...roundOptions, print: calls.printer(), tracer: options.tracer });
      } catch (e) {
        if (!(e instanceof PendingExternalCall)) throw e;
        pending = e;
      }
      if (round > MAX_NETWORK_ROUNDS) {
        throw new RegoError(
          "eval_builtin_error",
          `too many network calls in one query (more than ${MAX_NETWORK_ROUNDS})`,
        );
      }
      const outcome = await performBounded(pending.call, deadline, options?.signal);
      calls.outcomes.set(pending.call.key, outcome);
    }
  }

  /** Fast path for the data API: the value of data.<path...> (undefined when undefined). */
  evalRef(path: (string | number)[], options?: QueryOptions): Value | undefined {
    let value: Value | undefined;
    try {
      value = this.lookup(path, options);
    } catch (e) {
      throw stackError(e);
    }
    if (value !== undefined) return value;
    // URL paths carry array indexes as text: /v1/data/servers/0 means data.servers[0].
    const at = path.findIndex((p) => typeof p === "string" && /^(0|[1-9]\d*)$/.test(p));
    if (at < 0) return undefined;
    let v = this.evalRefExact(path.slice(0, at), options);
    for (const seg of path.slice(at)) {
      if (v === undefined) return undefined;
      const key =
        Array.isArray(v) && typeof seg === "string" && /^\d+$/.test(seg) ? Number(seg) : seg;
      v = indexValue(v, key);
    }
    return v;
  }

  private evalRefExact(path: (string | number)[], options?: QueryOptions): Value | undefined {
    return guardStack(() => this.lookup(path, options));
  }

  private lookup(path: (string | number)[], options?: QueryOptions): Value | undefined {
    // Callers such as the server pass the same cached path arrays again and again.
    let terms = this.refPathsByArray.get(path);
    if (!terms || !termsMatch(terms, path)) {
      terms = this.refTerms(path);
      this.refPathsByArray.set(path, terms);
    }
    const ev = this.evaluator(options);
    let out: Value | undefined;
    ev.evalDataRef(terms, new Map(), (v) => {
      out = v;
      return true;
    });
    return out;
  }

  /** The scalar terms of a data path, shared between equal paths. */
  private refTerms(path: (string | number)[]): Term[] {
    const key = JSON.stringify(path);
    let terms = this.refPaths.get(key);
    if (!terms) {
      const loc = { file: "", row: 0, col: 0, start: 0, end: 0 };
      terms = path.map((p) => ({ type: "scalar", value: p, loc }) as Term);
      if (this.refPaths.size > 1000) this.refPaths.clear();
      this.refPaths.set(key, terms);
    }
    return terms;
  }

  /** The base document (`data` as loaded or written), without rule values. */
  baseData(): Value {
    return this.data;
  }

  /**
   * An engine with the same compiled policies reading `data` as its base document: the
   * server's data writes swap one in without compiling again.
   */
  withData(data: Value): PolicyEngine {
    const copy = new PolicyEngine(this.options);
    copy.sources.push(...this.sources);
    copy.compiled = this.ensureCompiled();
    copy.parsed = this.parsed;
    copy.data = data;
    copy.httpCache = this.httpCache;
    return copy;
  }

  /** Where rules define documents (paths below `data`), for data/policy conflict checks. */
  rulePaths(): { path: string[]; loc: Loc }[] {
    const out: { path: string[]; loc: Loc }[] = [];
    const visit = (node: RuleNode): void => {
      const rule = node.rules[0]?.rule ?? node.defaultRule;
      if (rule) out.push({ path: node.path, loc: rule.loc });
      for (const child of node.children.values()) visit(child);
    };
    visit(this.ensureCompiled().policy.root);
    return out;
  }

  /** Every module's file, text and dialect, in load order (to build the same engine elsewhere). */
  moduleSources(): { file: string; source: string; v0: boolean }[] {
    return this.sources.map((s) => ({ ...s }));
  }

  /** The modules loaded, for `inspect`: package path (e.g. "data.simple") and file name. */
  modules(): { file: string; packagePath: string }[] {
    return this.parsed.map((m) => ({ file: m.file, packagePath: ["data", ...m.pkg].join(".") }));
  }
}
