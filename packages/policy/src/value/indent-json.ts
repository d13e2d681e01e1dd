/**
 * Go's json.Indent applied to compact JSON text, without parsing it (numbers keep their text,
 * keys their order), with OPA's leading prefix: every element on its
 * own line starting with `prefix` and one `indent` per nesting level; empty containers stay `[]`/`{}`.
 */
export function indentJsonWith(compact: string, prefix: string, indent: string): string {
  let out = prefix;
  let depth = 0;
  let inString = false;
  const newline = (): string => `\n${prefix}${indent.repeat(depth)}`;
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i] as string;
    if (inString) {
      out += c;
      if (c === "\\") out += compact[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "[" || c === "{") {
      const close = c === "[" ? "]" : "}";
      if (compact[i + 1] === close) {
        out += c + close;
        i++;
        continue;
      }
      depth++;
      out += c + newline();
    } else if (c === "]" || c === "}") {
      depth--;
      out += newline() + c;
    } else if (c === ",") out += c + newline();
    else if (c === ":") out += ": ";
    else out += c;
  }
  return out;
}
