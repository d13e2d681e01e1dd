/**
 * What the server serves: one immutable state (a compiled engine over the base document,
 * and the policy files it was compiled from) behind one reference. A write builds the next
 * state completely (a copy-on-write data root, or a new compilation of every policy) and
 * then swaps the reference in a single assignment. Evaluation is synchronous and reads the
 * reference once per decision, so every decision sees the state before a write or after it,
 * never a mix; a write that fails leaves the reference untouched.
 */
import type { Loc } from "../ast/nodes.js";
import { PolicyEngine } from "../engine.js";
import { RegoError, RegoErrorList } from "../errors.js";
import { packageText, rootPathsContain, rootPathsOverlap } from "../loader/bundle-roots.js";
import { mergeAt } from "../loader/data-document.js";
import type { PolicySource } from "../loader/load-paths.js";
import { parseModule } from "../syntax/module-parser.js";
import { fromJSON, RegoObject, type Value } from "../value/value.js";
import { type BundleScope, checkPathScope } from "./bundle-scope.js";
import { applyPatch, nonEmpty, readPath } from "./document-patch.js";
import { invalidWrite, StoreError } from "./store-error.js";

/** OPA's message for a policy change that does not parse or compile. */
export const COMPILE_MODULE_ERROR = "error(s) occurred while compiling module(s)";

interface StoreState {
  readonly engine: PolicyEngine;
  readonly policies: readonly PolicySource[];
}

/** `1 error occurred: file:row: code: message`, as Go prints a list of AST errors. */
function goErrorsText(errors: readonly RegoError[]): string {
  const one = (e: RegoError) =>
    `${e.location ? `${e.location.file}:${e.location.row}: ` : ""}${e.code}: ${e.message}`;
  if (errors.length === 1) return `1 error occurred: ${one(errors[0] as RegoError)}`;
  return `${errors.length} errors occurred:\n${errors.map(one).join("\n")}`;
}

/** Rules whose path holds data too (`conflicting rule for data path a/b found`). */
function dataConflicts(engine: PolicyEngine, data: Value, near?: readonly string[]): RegoError[] {
  const related = (path: readonly string[]) => {
    if (!near) return true;
    const n = Math.min(path.length, near.length);
    for (let i = 0; i < n; i++) if (path[i] !== near[i]) return false;
    return true;
  };
  const out: RegoError[] = [];
  for (const { path, loc } of engine.rulePaths()) {
    if (path.length === 0 || !related(path) || !nonEmpty(data, path)) continue;
    out.push(conflictError(path, loc));
  }
  return out;
}

function conflictError(path: readonly string[], loc: Loc): RegoError {
  return new RegoError(
    "rego_compile_error",
    `conflicting rule for data path ${path.join("/")} found`,
    { file: loc.file, row: loc.row, col: loc.col },
  );
}

/** True when a policy text holds nothing but blanks and comments (OPA: `empty module`). */
function isEmptyModule(source: string): boolean {
  return source.split("\n").every((line) => /^\s*(#.*)?$/.test(line));
}

/** The errors of a failed parse or compile, or undefined when `e` is something else. */
function regoErrors(e: unknown): RegoError[] | undefined {
  if (e instanceof RegoErrorList) return e.errors;
  if (e instanceof RegoError) return [e];
  return undefined;
}

/** A downloaded bundle, read and ready to activate (see `PolicyStore.activateBundle`). */
export interface ActivatedBundle {
  readonly name: string;
  /** The manifest's roots, slash-separated without a leading slash (`""`: everything). */
  readonly roots: readonly string[];
  readonly modules: readonly PolicySource[];
  readonly documents: readonly { readonly path: readonly string[]; readonly value: Value }[];
  /** The manifest's `revision` ("" when none). */
  readonly revision?: string;
  /**
   * What OPA writes at `data.system.bundles.<name>`: the manifest as OPA stores it
   * (`revision`, `roots`, `metadata`, ...) and the download's `etag`.
   */
  readonly manifest?: Readonly<Record<string, unknown>>;
  readonly etag?: string;
}

/** `data.system.bundles`: each activated bundle's manifest and etag, as OPA keeps them. */
function withBundleRecords(data: Value, records: ReadonlyMap<string, Value>): Value {
  let out = data;
  for (const [name, record] of records) {
    const path = ["system", "bundles", name];
    if (readPath(out, path) !== undefined) out = applyPatch(out, "remove", path);
    if (out instanceof RegoObject) out = mergeAt(out, path, record);
  }
  return out;
}

/** Why a bundle was not activated; `errors` holds parse and compile errors, if any. */
export class BundleActivationError extends Error {
  constructor(
    message: string,
    readonly errors: readonly RegoError[] = [],
  ) {
    super(message);
    this.name = "BundleActivationError";
  }
}

/**
 * Told of every new state: its engine, whether the policies changed, and for a data write
 * the path it wrote (nothing outside that path changed).
 */
export type StoreListener = (
  engine: PolicyEngine,
  policiesChanged: boolean,
  written?: readonly string[],
) => void;

/** The served state and its atomic updates. */
export class PolicyStore {
  private state: StoreState;
  /** The policy ids each downloaded bundle activated, so the next activation replaces them. */
  private readonly bundleFiles = new Map<string, readonly string[]>();
  /** What each downloaded bundle put at `data.system.bundles.<name>`, kept across activations. */
  private readonly bundleRecords = new Map<string, Value>();

  private readonly listeners = new Set<StoreListener>();

  constructor(
    engine: PolicyEngine,
    policies: readonly PolicySource[],
    /** Bundles whose roots are read-only here. */
    private bundles: readonly BundleScope[] = [],
  ) {
    this.state = { engine, policies };
  }

  /**
   * Calls `listener` after every swap, in the same turn (the evaluation workers receive the
   * new state before any decision dispatched after it). Returns the unsubscribe function.
   */
  onChange(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Bundles whose roots are read-only here (their names go into `provenance`). */
  get bundleScopes(): readonly BundleScope[] {
    return this.bundles;
  }

  private swap(state: StoreState, policiesChanged: boolean, written?: readonly string[]): void {
    this.state = state;
    for (const listener of this.listeners) listener(state.engine, policiesChanged, written);
  }

  /** Throws OPA's 400 when a write at `path` touches a bundle's roots. */
  checkScope(path: readonly string[]): void {
    checkPathScope(this.bundles, path);
  }

  /** The engine every decision reads (one read per decision). */
  get engine(): PolicyEngine {
    return this.state.engine;
  }

  /** The policy files the engine was compiled from, in load order. */
  get policies(): readonly PolicySource[] {
    return this.state.policies;
  }

  /**
   * The stored id a Policy API path names: the id itself, or the id with a leading `/`
   * (files named by absolute path lose their first slash in the URL).
   */
  resolveId(id: string): string | undefined {
    const { policies } = this.state;
    return (
      policies.find((p) => p.file === id)?.file ?? policies.find((p) => p.file === `/${id}`)?.file
    );
  }

  /** Replaces everything at once (a `--watch` reload). */
  reset(
    engine: PolicyEngine,
    policies: readonly PolicySource[],
    bundles: readonly BundleScope[] = [],
  ): void {
    this.bundles = bundles;
    this.bundleFiles.clear(); // Downloaded bundles are activated again by their plugin.
    this.bundleRecords.clear();
    this.swap({ engine, policies }, true);
  }

  /**
   * Applies `update` to the base document and swaps the result in, unless the new data
   * sits where a rule is defined (400 `invalid_parameter`, as OPA's path-conflict check).
   * `touched` is the written path: only rules above or below it are checked.
   */
  writeData(update: (data: Value) => Value, touched: readonly string[]): void {
    const { engine, policies } = this.state;
    const next = update(engine.baseData());
    const conflicts = dataConflicts(engine, next, touched);
    if (conflicts.length > 0) throw invalidWrite(goErrorsText(conflicts));
    this.swap({ engine: engine.withData(next), policies }, false, touched);
  }

  /**
   * Adds or replaces the policy `id`, compiling it with every other policy; any parse or
   * compile error refuses the change whole (400 `invalid_parameter`). False when the text
   * is the one already stored (a no-op, as in OPA).
   */
  putPolicy(id: string, source: string): boolean {
    if (isEmptyModule(source)) throw invalidWrite("empty module");
    const { policies } = this.state;
    const file = this.resolveId(id) ?? id;
    const at = policies.findIndex((p) => p.file === file);
    if (at >= 0 && policies[at]?.source === source) return false;
    if (at >= 0) this.checkPackageScope(policies[at] as PolicySource);
    this.checkPackageScope({ file, source });
    const next = policies.slice();
    if (at >= 0) next[at] = { file, source };
    else next.push({ file, source });
    this.swap(
      this.compiled(next, (errors) => invalidWrite(COMPILE_MODULE_ERROR, errors)),
      true,
    );
    return true;
  }

  /** Removes the policy `id`; refused (400 `invalid_operation`) when others need it. */
  deletePolicy(id: string): void {
    const { policies } = this.state;
    const file = this.resolveId(id);
    if (file === undefined) throw policyNotFound(id);
    this.checkPackageScope(policies.find((p) => p.file === file) as PolicySource);
    const next = policies.filter((p) => p.file !== file);
    this.swap(
      this.compiled(
        next,
        (errors) => new StoreError("invalid_operation", COMPILE_MODULE_ERROR, errors),
      ),
      true,
    );
  }

  /**
   * Activates a downloaded bundle all or nothing, as OPA does: the policies it brought last
   * time and the data under its old and new roots give way to its new contents, while
   * policies and data outside those roots (API writes, files, other bundles) stay. Anything
   * wrong (roots that overlap another bundle's, contents outside the roots, a parse or
   * compile error, data where a rule is) throws BundleActivationError and changes nothing.
   */
  activateBundle(bundle: ActivatedBundle): void {
    const { name, roots } = bundle;
    const shown = `[${roots.join(" ")}]`;
    for (const other of this.bundles) {
      if (other.name === name) continue;
      for (const root of roots) {
        if (other.roots.some((r) => rootPathsOverlap(r, root))) {
          throw new BundleActivationError(
            `detected overlapping roots in bundle manifest with: [${name} ${other.name}]`,
          );
        }
      }
    }
    const v0 = this.state.engine.options.v0Compatible ?? false;
    for (const m of bundle.modules) {
      let pkg: string[] | undefined;
      try {
        pkg = parsePolicy(m, v0).pkg;
      } catch {
        continue; // Reported with its position by the compile step.
      }
      if (!rootPathsContain(roots, pkg.join("/"))) {
        throw new BundleActivationError(
          `manifest roots ${shown} do not permit '${packageText(pkg)}' in module '${m.file}'`,
        );
      }
    }
    for (const d of bundle.documents) {
      if (!rootPathsContain(roots, d.path.join("/"))) {
        throw new BundleActivationError(
          `manifest roots ${shown} do not permit data at path '/${d.path.join("/")}' (hint: check bundle directory structure)`,
        );
      }
    }
    const previous = this.bundles.find((b) => b.name === name);
    let data = this.state.engine.baseData();
    for (const root of new Set([...(previous?.roots ?? []), ...roots])) {
      if (root === "") data = new RegoObject();
      else if (readPath(data, root.split("/")) !== undefined) {
        data = applyPatch(data, "remove", root.split("/"));
      }
    }
    for (const d of bundle.documents) {
      if (!(data instanceof RegoObject)) break;
      try {
        data = mergeAt(data, [...d.path], d.value);
      } catch (e) {
        throw new BundleActivationError((e as Error).message);
      }
    }
    const records = new Map(this.bundleRecords);
    const manifest = bundle.manifest ?? { revision: bundle.revision ?? "", roots: [...roots] };
    records.set(name, fromJSON({ manifest, etag: bundle.etag ?? "" }));
    data = withBundleRecords(data, records);
    const oldFiles = new Set(this.bundleFiles.get(name) ?? []);
    const policies = [
      ...this.state.policies.filter((p) => !oldFiles.has(p.file)),
      ...bundle.modules.map((m) => ({ file: m.file, source: m.source })),
    ];
    const next = this.compiled(
      policies,
      (errors) => new BundleActivationError(goErrorsText(errors), errors),
      data,
    );
    const scope: BundleScope = { name, roots: [...roots], revision: bundle.revision };
    this.bundles = [...this.bundles.filter((b) => b.name !== name), scope];
    this.bundleFiles.set(
      name,
      bundle.modules.map((m) => m.file),
    );
    this.bundleRecords.set(name, records.get(name) as Value);
    this.swap(next, true);
  }

  /** A policy whose package lies under a bundle's roots cannot change (OPA's scope check). */
  private checkPackageScope(policy: PolicySource): void {
    if (this.bundles.length === 0) return;
    let pkg: string[];
    try {
      pkg = parsePolicy(policy, this.state.engine.options.v0Compatible ?? false).pkg;
    } catch {
      return; // Text that does not parse is refused by the compile step, with its errors.
    }
    checkPathScope(this.bundles, pkg);
  }

  /** A new state compiling `policies` over `data` (the current data); `refuse` makes the error. */
  private compiled(
    policies: readonly PolicySource[],
    refuse: (errors: RegoError[]) => Error,
    data?: Value,
  ): StoreState {
    const { engine: current } = this.state;
    const fresh = new PolicyEngine(current.options);
    const parseErrors: RegoError[] = [];
    for (const p of policies) {
      try {
        fresh.addModule(p.file, p.source);
      } catch (e) {
        const errors = regoErrors(e);
        if (!errors) throw e;
        parseErrors.push(...errors);
      }
    }
    if (parseErrors.length > 0) throw refuse(parseErrors);
    try {
      fresh.compile();
    } catch (e) {
      const errors = regoErrors(e);
      if (!errors) throw e;
      throw refuse(errors);
    }
    const engine = fresh.withData(data ?? current.baseData());
    const conflicts = dataConflicts(engine, engine.baseData());
    if (conflicts.length > 0) throw refuse(conflicts);
    return { engine, policies };
  }
}

/** OPA's answer for an unknown policy id: 404 `resource_not_found`. */
export function policyNotFound(id: string): StoreError {
  return new StoreError("not_found", `storage_not_found_error: policy id "${id}"`);
}

/** A policy's module as parsed from its text, for the Policy API's `ast`. */
export function parsePolicy(policy: PolicySource, v0: boolean) {
  return parseModule(policy.file, policy.source, v0);
}
