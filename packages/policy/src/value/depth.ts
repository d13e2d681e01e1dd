/**
 * Nesting depth of documents, measured without recursion: the depth of an input is capped
 * (REGO_MAX_INPUT_DEPTH) so that evaluation, which recurses over values in places, never
 * meets a document deeper than it can handle. A scalar has depth 0, `[]` and `{}` depth 1.
 */
import { RegoObject, type RegoSet, type Value } from "./value.js";

/**
 * The deepest value that builtins build from text (`json.unmarshal`). Comparing, hashing
 * and writing values recurse per level, and past a few thousand levels run out of stack;
 * 1000 is the limit the parser and inputs have too (OPA's decoder allows 10,000).
 */
export const MAX_VALUE_DEPTH = 1000;

/** True when the JSON text nests arrays and objects more than `max` levels deep. */
export function jsonTextDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * True when brackets (`[`, `{`) nest more than `max` deep anywhere in the text, quotes or
 * not: a cheap, conservative bound for YAML flow collections, which the YAML parser reads
 * by recursion (a deep enough text exhausts the stack, or worse, V8's regex compiler).
 */
export function bracketDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return false;
}

/**
 * A conservative bound on the nesting of YAML text: flow brackets (`bracketDepthExceeds`),
 * and per line, the indentation plus the block indicators (`- `, `? `, `: `) on it, since
 * each block level needs a column or an indicator.
 */
export function yamlNestingExceeds(text: string, max: number): boolean {
  if (bracketDepthExceeds(text, max)) return true;
  let bound = 0;
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      bound = 0;
      atLineStart = true;
      continue;
    }
    const indicator = (c === 0x2d || c === 0x3a || c === 0x3f) && text.charCodeAt(i + 1) === 0x20;
    if ((atLineStart && c === 0x20) || indicator) {
      if (++bound > max) return true;
    } else atLineStart = false;
  }
  return false;
}

/** True when the value nests arrays, objects and sets more than `max` levels deep. */
export function valueDepthExceeds(v: Value, max: number): boolean {
  const stack: [Value, number][] = [[v, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > max) return true;
    const children = node instanceof RegoObject ? node.values() : (node as Value[] | RegoSet);
    for (const child of children) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}
