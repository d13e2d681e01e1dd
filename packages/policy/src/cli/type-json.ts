/**
 * Builtin operand types in OPA's JSON form, as `opa capabilities` prints them, from the
 * registry's text notation (`array[string] | set`, `object[string, any]`).
 */

/** OPA's JSON type descriptor. */
export type TypeJson =
  | { type: "any"; of?: TypeJson[] }
  | { type: "null" | "boolean" | "number" | "string" }
  | { type: "array"; dynamic: TypeJson }
  | { type: "set"; of: TypeJson }
  | { type: "object"; dynamic: { key: TypeJson; value: TypeJson } };

const ANY: TypeJson = { type: "any" };

/** Splits `text` on `separator` where no brackets are open. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

function single(text: string): TypeJson {
  const m = /^(\w+)(?:\[(.*)\])?$/.exec(text);
  const name = m?.[1];
  const inner = m?.[2];
  switch (name) {
    case "null":
    case "boolean":
    case "number":
    case "string":
      return { type: name };
    case "array":
      return { type: "array", dynamic: inner ? typeJson(inner) : ANY };
    case "set":
      return { type: "set", of: inner ? typeJson(inner) : ANY };
    case "object": {
      const [key, value] = inner ? splitTop(inner, ",") : [];
      return {
        type: "object",
        dynamic: { key: key ? typeJson(key) : ANY, value: value ? typeJson(value) : ANY },
      };
    }
    default:
      return ANY;
  }
}

/** The JSON descriptor of a type written in the registry's notation. */
export function typeJson(text: string): TypeJson {
  const alternatives = splitTop(text, "|");
  if (alternatives.length === 1) return single(alternatives[0] as string);
  return { type: "any", of: alternatives.map(single) };
}
