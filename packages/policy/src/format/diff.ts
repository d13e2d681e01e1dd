/**
 * `rego fmt --diff`: the old and new text as one text with the deleted runs in red and the
 * inserted runs in green (ANSI colours), as OPA prints its diff-match-patch result. Lines
 * are compared first; the characters of each changed run of lines after that, so that a
 * long file with many changes stays quick.
 */

type Op = { kind: "equal" | "delete" | "insert"; text: string };

const RED = "\u001b[31m";
const GREEN = "\u001b[32m";
const RESET = "\u001b[0m";

/** Largest changed run (characters on both sides) diffed character by character. */
const CHAR_DIFF_LIMIT = 4000;

/** The diff of `before` → `after` as OPA's coloured text (no trailing newline added). */
export function prettyDiff(before: string, after: string): string {
  return diffText(before, after)
    .map((op) =>
      op.kind === "equal" ? op.text : `${op.kind === "delete" ? RED : GREEN}${op.text}${RESET}`,
    )
    .join("");
}

/** The edit script from `before` to `after`, adjacent runs of one kind merged. */
export function diffText(before: string, after: string): Op[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops: Op[] = [];
  for (const op of myers(a, b)) {
    const last = ops.at(-1);
    if (last && last.kind === op.kind) last.text += op.text;
    else ops.push({ ...op });
  }
  return merge(refine(ops));
}

function splitLines(s: string): string[] {
  return s.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Replaces each delete+insert pair of line runs by its character-level diff. */
function refine(ops: Op[]): Op[] {
  const out: Op[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i] as Op;
    const next = ops[i + 1];
    if (
      op.kind === "delete" &&
      next?.kind === "insert" &&
      op.text.length + next.text.length <= CHAR_DIFF_LIMIT
    ) {
      out.push(...myers([...op.text], [...next.text]));
      i++;
    } else out.push(op);
  }
  return out;
}

function merge(ops: Op[]): Op[] {
  const out: Op[] = [];
  for (const op of ops) {
    if (op.text === "") continue;
    const last = out.at(-1);
    if (last && last.kind === op.kind) last.text += op.text;
    else out.push({ ...op });
  }
  return out;
}

/** Myers' O((N+M)D) shortest edit script over two token lists. */
function myers(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[max + k - 1] as number) < (v[max + k + 1] as number));
      let x = down ? (v[max + k + 1] as number) : (v[max + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[max + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, max, d);
    }
  }
  return [];
}

function backtrack(trace: Int32Array[], a: string[], b: string[], max: number, dEnd: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d >= 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[max + k - 1] as number) < (v[max + k + 1] as number));
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : (v[max + prevK] as number);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: "equal", text: a[--x] as string });
      y--;
    }
    if (d > 0) {
      if (down) ops.push({ kind: "insert", text: b[--y] as string });
      else ops.push({ kind: "delete", text: a[--x] as string });
    }
  }
  return ops.reverse();
}
