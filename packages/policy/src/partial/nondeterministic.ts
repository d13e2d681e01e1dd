/**
 * Builtins whose value may differ between calls (`time.now_ns`, `rand.intn`, `http.send`,
 * …): partial evaluation keeps their calls in the residual instead of evaluating them, as
 * OPA does unless asked (`nondeterministicBuiltins`).
 */
import { lookupBuiltin } from "../builtins/registry.js";

/** `http.send` is nondeterministic in OPA whether or not its definition says so here. */
const ALWAYS = new Set(["http.send"]);

export function isNondeterministic(name: string): boolean {
  return ALWAYS.has(name) || lookupBuiltin(name)?.nondeterministic === true;
}
