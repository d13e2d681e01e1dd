/**
 * `--set a.b=c,d.e=f` and `--set-file a.b=path`: OPA's command-line overrides of the
 * configuration file. A key is a dotted path (a segment may end with `[n]` to index a
 * list); values are typed as OPA types them: `true`/`false` are booleans, `null` is null,
 * whole numbers are numbers (a leading zero keeps text), anything else is a string. One
 * deviation: decimal numbers are numbers too, so fractional polling delays can be set.
 * A comma separates assignments unless escaped as `\,`.
 */

/** A malformed override (no `=`, an empty key): the flag is misused. */
export class OverrideSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OverrideSyntaxError";
  }
}

/** Splits `a=1,b=2` on unescaped commas, un-escaping `\,`. */
function splitAssignments(text: string): string[] {
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && text[i + 1] === ",") {
      current += ",";
      i++;
    } else if (ch === ",") {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out;
}

/** OPA's typing of an override's text. */
export function typedOverrideValue(text: string): unknown {
  if (text === "true") return true;
  if (text === "false") return false;
  if (text === "null") return null;
  if (/^-?(0|[1-9]\d*)$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  if (/^-?(0|[1-9]\d*)\.\d+$/.test(text)) return Number(text);
  return text;
}

type Segment = string | number;

/** `a.b[0].c` → ["a", "b", 0, "c"]. */
function keySegments(key: string, flag: string): Segment[] {
  const out: Segment[] = [];
  for (const part of key.split(".")) {
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) throw new OverrideSyntaxError(`${flag} ${key}: malformed key`);
    out.push(m[1] as string);
    for (const index of (m[2] as string).matchAll(/\[(\d+)\]/g)) out.push(Number(index[1]));
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Writes `value` at `path` inside `root`, creating (or replacing non-container) parents. */
function setPath(root: Record<string, unknown>, path: Segment[], value: unknown): void {
  let node: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i] as Segment;
    const last = i === path.length - 1;
    const nextIsIndex = typeof path[i + 1] === "number";
    const read = (): unknown =>
      Array.isArray(node) ? node[seg as number] : (node as Record<string, unknown>)[seg as string];
    const write = (v: unknown): void => {
      if (Array.isArray(node)) {
        // Indexes past the end fill the gap with nulls (no holes in the document).
        while (node.length < (seg as number)) node.push(null);
        node[seg as number] = v;
      } else (node as Record<string, unknown>)[seg as string] = v;
    };
    if (last) {
      write(value);
      return;
    }
    let child = read();
    if (nextIsIndex ? !Array.isArray(child) : !isRecord(child)) {
      child = nextIsIndex ? [] : {};
      write(child);
    }
    node = child as Record<string, unknown> | unknown[];
  }
}

/** Applies every `--set` value (each may hold several comma-separated assignments). */
export function applySetOverrides(config: Record<string, unknown>, values: readonly string[]) {
  for (const value of values) {
    for (const assignment of splitAssignments(value)) {
      const at = assignment.indexOf("=");
      if (at <= 0) throw new OverrideSyntaxError(`--set ${assignment}: expected key=value`);
      const key = assignment.slice(0, at);
      setPath(config, keySegments(key, "--set"), typedOverrideValue(assignment.slice(at + 1)));
    }
  }
}

/** Applies every `--set-file key=path`: the key takes the file's text as a string. */
export function applySetFileOverrides(
  config: Record<string, unknown>,
  values: readonly string[],
  readText: (path: string) => string,
) {
  for (const value of values) {
    for (const assignment of splitAssignments(value)) {
      const at = assignment.indexOf("=");
      if (at <= 0) throw new OverrideSyntaxError(`--set-file ${assignment}: expected key=path`);
      const key = assignment.slice(0, at);
      setPath(config, keySegments(key, "--set-file"), readText(assignment.slice(at + 1)));
    }
  }
}
