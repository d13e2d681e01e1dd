/**
 * The documents partial evaluation treats as unknown (`--unknowns`, the compile API's
 * `unknowns`): refs such as `input` or `input.resource` or `data.users`, each parsed as a
 * term. A ref mentions an unknown when one of the two is a prefix of the other: `input`
 * touches `input.resource`, and so does `input.resource.owner`, but `input.user` does not.
 */
import type { Term } from "../ast/nodes.js";
import { RegoError } from "../errors.js";
import { parseQuery } from "../syntax/module-parser.js";

/** One unknown: its root (`input` or `data`) and the keys below it. */
export type UnknownPath = readonly string[];

/**
 * Parses unknowns as OPA does, each a term. Terms that are not refs under `input` or `data`
 * are accepted and match nothing, as in OPA; text that is not a term is an error.
 */
export function parseUnknowns(texts: readonly string[]): UnknownPath[] {
  const out: UnknownPath[] = [];
  for (const text of texts) {
    const body = parseQuery(text, "unknowns");
    const e = body[0];
    const t = body.length === 1 && e?.type === "term" && !e.negated ? e.term : undefined;
    if (!t) {
      throw new RegoError("rego_parse_error", `expected term: ${JSON.stringify(text)}`, {
        file: "unknowns",
        row: 1,
        col: 1,
      });
    }
    const path = constantPath(t);
    if (path && (path[0] === "input" || path[0] === "data")) out.push(path);
  }
  return out;
}

/** `input.a.b` → ["input", "a", "b"]; a computed key ends it (`input[x]` → ["input"]). */
function constantPath(t: Term): string[] | undefined {
  return refPrefix(t)?.prefix;
}

/** The root and leading string keys of a ref (up to its first computed key). */
export function refPrefix(t: Term): { prefix: string[]; complete: boolean } | undefined {
  if (t.type === "var") return { prefix: [t.name], complete: true };
  if (t.type !== "ref" || t.head.type !== "var") return undefined;
  const prefix = [t.head.name];
  for (const p of t.path) {
    if (p.type !== "scalar" || typeof p.value !== "string") return { prefix, complete: false };
    prefix.push(p.value);
  }
  return { prefix, complete: true };
}

/** True when a path under `input`/`data` overlaps one of the unknowns. */
export function overlapsUnknown(prefix: readonly string[], unknowns: readonly UnknownPath[]) {
  return unknowns.some((u) => {
    const n = Math.min(u.length, prefix.length);
    for (let i = 0; i < n; i++) if (u[i] !== prefix[i]) return false;
    return true;
  });
}

/** True when the term is a ref (or the var `input`/`data`) that reads an unknown. */
export function readsUnknown(t: Term, unknowns: readonly UnknownPath[]): boolean {
  if (t.type === "var" && t.name !== "input" && t.name !== "data") return false;
  const p = refPrefix(t);
  if (!p) return false;
  const root = p.prefix[0];
  if (root !== "input" && root !== "data") return false;
  return overlapsUnknown(p.prefix, unknowns);
}
