/**
 * Masking of decision log events, as OPA documents and implements it: the mask policy returns
 * JSON pointers below `/input`, `/result` or `/nd_builtin_cache` (erase) or
 * `{"op": "remove"|"upsert", "path", "value"}` objects. Erased pointers are listed in the
 * event's `erased`, upserted ones in `masked`. Pointers to undefined data are ignored.
 */
import type { DecisionEvent } from "./decision-event.js";

type MaskOp = "remove" | "upsert";

/** A mask policy answer OPA refuses; the event is then not logged at all. */
export class MaskRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MaskRuleError";
  }
}

interface MaskRule {
  op: MaskOp;
  /** Path segments after the leading slash, each escaped as Go's url.PathEscape does. */
  parts: string[];
  value: unknown;
}

const ALLOWED_PREFIXES = new Set(["input", "result", "nd_builtin_cache"]);
/** Bytes url.PathEscape leaves alone in a path segment. */
const SEGMENT_SAFE = /^[A-Za-z0-9\-_.~$&+:=@]$/;

/** Go's url.PathEscape (path segment mode): UTF-8 bytes outside the safe set become %XX. */
function pathEscape(segment: string): string {
  let out = "";
  for (const byte of Buffer.from(segment, "utf8")) {
    const ch = String.fromCharCode(byte);
    out +=
      byte < 0x80 && SEGMENT_SAFE.test(ch)
        ? ch
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Go's url.PathUnescape only to check the segment: a `%` must start two hex digits. */
function checkUnescapable(segment: string): void {
  const bad = /%(?![0-9A-Fa-f]{2})(.{0,2})/.exec(segment);
  if (bad) throw new MaskRuleError(`invalid URL escape "%${bad[1]}"`);
}

function parseRule(path: string, op: MaskOp, value: unknown): MaskRule {
  if (path.length === 0) throw new MaskRuleError("mask must be non-empty");
  if (!path.startsWith("/")) throw new MaskRuleError("mask must be slash-prefixed");
  const raw = path.slice(1).split("/");
  if (!ALLOWED_PREFIXES.has(raw[0] ?? "")) {
    throw new MaskRuleError(`mask prefix not allowed: ${raw[0]}`);
  }
  // OPA looks keys up in their escaped form, so a key needing escapes is never matched.
  const parts = raw.map((p) => {
    checkUnescapable(p);
    return pathEscape(p);
  });
  return { op, parts, value };
}

function describe(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** Reads the mask policy's answer (plain JSON: a set arrives as a sorted array). */
export function parseMaskRules(answer: unknown): MaskRule[] {
  if (!Array.isArray(answer)) {
    throw new MaskRuleError(`unexpected rule format ${describe(answer)}`);
  }
  return answer.map((item) => {
    if (typeof item === "string") return parseRule(item, "remove", undefined);
    if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      const o = item as Record<string, unknown>;
      if ("op" in o && (typeof o.op !== "string" || o.op === "")) {
        throw new MaskRuleError(`invalid "op" value: ${describe(o.op)}`);
      }
      if ("path" in o && (typeof o.path !== "string" || o.path === "")) {
        throw new MaskRuleError(`invalid "path" value: ${describe(o.path)}`);
      }
      const path = typeof o.path === "string" ? o.path : "";
      const rule = parseRule(path, "remove", o.value);
      const op = typeof o.op === "string" ? o.op : "";
      if (op !== "remove" && op !== "upsert") {
        throw new MaskRuleError(`mask op is not supported: ${op}`);
      }
      return { ...rule, op };
    }
    throw new MaskRuleError(`invalid mask rule format encountered: ${describe(item)}`);
  });
}

/** strconv.Atoi: optional sign, decimal digits. */
function arrayIndex(key: string): number | undefined {
  return /^[+-]?\d+$/.test(key) ? Number(key) : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && v.constructor === Object;
}

/** Child of an object or array at `key`, or undefined when there is none. */
function child(node: unknown, key: string): { value: unknown } | undefined {
  if (isObject(node)) return Object.hasOwn(node, key) ? { value: node[key] } : undefined;
  if (Array.isArray(node)) {
    const i = arrayIndex(key);
    return i !== undefined && i >= 0 && i < node.length ? { value: node[i] } : undefined;
  }
  return undefined;
}

/** Deletes the value at `path` below `root`; false when the path is undefined. */
function removeAt(root: unknown, path: string[]): boolean {
  let node = root;
  let hasParent = false;
  for (const key of path.slice(0, -1)) {
    const next = child(node, key);
    if (!next) return false;
    node = next.value;
    hasParent = true;
  }
  const target = path[path.length - 1] as string;
  if (isObject(node)) {
    if (!Object.hasOwn(node, target)) return false;
    delete node[target];
    return true;
  }
  if (Array.isArray(node)) {
    const i = arrayIndex(target);
    // OPA rebuilds the array inside its parent; an array at the very top has none.
    if (i === undefined || i < 0 || i >= node.length || !hasParent) return false;
    node.splice(i, 1);
    return true;
  }
  return false;
}

/** Sets `value` at `path` below `root`, creating missing objects; false when it cannot. */
function upsertAt(root: Record<string, unknown>, path: string[], value: unknown): boolean {
  let node: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (isObject(node)) {
      if (!Object.hasOwn(node, key)) node[key] = {};
      node = node[key];
    } else if (Array.isArray(node)) {
      const i = arrayIndex(key);
      if (i === undefined || i < 0 || i >= node.length) return false;
      node = node[i];
    } else {
      return false;
    }
  }
  const target = path[path.length - 1] as string;
  if (isObject(node)) {
    node[target] = value;
    return true;
  }
  if (Array.isArray(node)) {
    const i = arrayIndex(target);
    if (i === undefined || i < 0 || i >= node.length) return false;
    node[i] = value;
    return true;
  }
  return false;
}

/** Copies plain objects and arrays; other values (numbers, strings) are immutable. */
function deepCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(deepCopy);
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = deepCopy(v[k]);
    return out;
  }
  return v;
}

type Part = "input" | "result";

function applyRule(rule: MaskRule, event: DecisionEvent): void {
  const part = rule.parts[0] as string;
  // No event carries nd_builtin_cache here, so rules on it find nothing, as on a missing part.
  if (part !== "input" && part !== "result") return;
  const key = part as Part;
  if (event[key] === undefined) return;
  const pointer = `/${rule.parts.join("/")}`;
  const rest = rule.parts.slice(1);
  if (rule.op === "remove") {
    if (rest.length === 0) event[key] = undefined;
    else if (!removeAt(event[key], rest)) return;
    event.erased = [...(event.erased ?? []), pointer];
    return;
  }
  const value = rule.value === undefined ? null : rule.value;
  if (rest.length === 0) {
    event[key] = value;
  } else {
    const top = event[key];
    if (!isObject(top) || !upsertAt(top, rest, deepCopy(value))) return;
  }
  event.masked = [...(event.masked ?? []), pointer];
}

/**
 * Applies the rules in order to the event's input and result (copied first, so the caller's
 * documents stay untouched).
 */
export function applyMaskRules(rules: readonly MaskRule[], event: DecisionEvent): void {
  if (rules.length === 0) return;
  if (event.input !== undefined) event.input = deepCopy(event.input);
  if (event.result !== undefined) event.result = deepCopy(event.result);
  for (const rule of rules) applyRule(rule, event);
}
