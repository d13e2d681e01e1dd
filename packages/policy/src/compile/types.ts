/**
 * Static type checking of builtin calls: where an operand's type is known at compile time
 * (literals, comprehensions, template strings, results of other builtins), it must fit the
 * builtin's declared operand type, else `rego_type_error`. Unknown types always pass, so the
 * check only rejects calls that could never succeed.
 */
import type { Rule, Term } from "../ast/nodes.js";
import { lookupBuiltin } from "../builtins/registry.js";
import { RegoError } from "../errors.js";
import { visitRule } from "./calls.js";

type Kind = "null" | "boolean" | "number" | "string" | "array" | "set" | "object";
const kinds = new Set<string>(["null", "boolean", "number", "string", "array", "set", "object"]);

/** The top-level kinds a type allows; undefined means any. */
export function typeKinds(notation: string): Set<Kind> | undefined {
  const out = new Set<Kind>();
  let depth = 0;
  let part = "";
  const flush = (): boolean => {
    const name = part.trim().replace(/\[.*$/s, "").trim();
    part = "";
    if (name === "any" || name === "") return false;
    if (!kinds.has(name)) return false;
    out.add(name as Kind);
    return true;
  };
  for (const c of notation) {
    if (c === "[") depth++;
    if (c === "]") depth--;
    if (c === "|" && depth === 0) {
      if (!flush()) return undefined;
    } else part += c;
  }
  if (!flush()) return undefined;
  return out;
}

/** The kind of a term when it is known without evaluating it. */
function staticKind(t: Term, vars: Map<string, Kind>): Kind | undefined {
  switch (t.type) {
    case "var":
      return vars.get(t.name);
    case "scalar":
      if (t.value === null) return "null";
      if (typeof t.value === "boolean") return "boolean";
      if (typeof t.value === "string") return "string";
      return "number";
    case "array":
    case "arraycompr":
      return "array";
    case "set":
    case "setcompr":
      return "set";
    case "object":
    case "objectcompr":
      return "object";
    case "template":
      return "string";
    case "call": {
      const def = lookupBuiltin(t.name);
      const result = def ? typeKinds(def.result) : undefined;
      return result?.size === 1 ? [...result][0] : undefined;
    }
    default:
      return undefined;
  }
}

/** Reports builtin calls whose operand types can be seen to be wrong. */
export function checkTypes(rule: Rule, errors: RegoError[]): void {
  // Vars declared with := have unique names, so the kind of what they are assigned is theirs.
  const vars = new Map<string, Kind>();
  visitRule(rule, (t) => {
    if (t.type !== "call" || t.name !== "assign") return;
    const [lhs, rhs] = t.args as [Term, Term];
    if (lhs.type !== "var" || !lhs.name.includes("$")) return;
    const kind = staticKind(rhs, vars);
    if (kind) vars.set(lhs.name, kind);
  });
  visitRule(rule, (t) => {
    if (t.type !== "call") return;
    const def = lookupBuiltin(t.name);
    if (!def || def.args.length === 0) return;
    const have = t.args.slice(0, def.args.length).map((a) => staticKind(a, vars));
    const bad = have.some((k, i) => {
      const want = typeKinds(def.args[i] as string);
      return k !== undefined && want !== undefined && !want.has(k);
    });
    if (!bad) return;
    const message = `${t.name}: invalid argument(s)\n\thave: (${have.map((k) => k ?? "any").join(", ")})\n\twant: (${def.args.join(", ")})`;
    errors.push(
      new RegoError("rego_type_error", message, {
        file: t.loc.file,
        row: t.loc.row,
        col: t.loc.col,
      }),
    );
  });
}
