/**
 * The order in which a body's literals run, as OPA's safety pass picks it: passes over the
 * literals left, each taking (in source order) every literal that can run with the vars
 * bound so far. A literal is looked at again only once one of its vars has been bound, at
 * the place the next pass would reach it, so the work is linear in the body rather than one
 * pass per literal taken.
 */

/** Tries literal `i` with the vars bound now: the vars it binds, or undefined if it must wait. */
export type TryLiteral = (i: number) => Iterable<string> | undefined;

/** The indexes of the literals that can run, in the order they run; binds into `bound`. */
export function orderLiterals(
  count: number,
  bound: Set<string>,
  tryLiteral: TryLiteral,
  varsOf: (i: number) => Iterable<string>,
): number[] {
  const taken: boolean[] = new Array(count).fill(false);
  const watched: boolean[] = new Array(count).fill(false);
  const waiting = new Map<string, number[]>();
  let now = new IndexHeap();
  let later = new IndexHeap();
  let inNow: boolean[] = new Array(count).fill(true);
  let inLater: boolean[] = new Array(count).fill(false);
  for (let i = 0; i < count; i++) now.push(i);
  const order: number[] = [];
  while (now.size > 0) {
    const i = now.pop();
    inNow[i] = false;
    const outputs = tryLiteral(i);
    if (outputs === undefined) {
      // Watched from its first wait on: its vars stay watched until they are bound.
      if (!watched[i]) for (const v of varsOf(i)) if (!bound.has(v)) watch(waiting, v, i);
      watched[i] = true;
    } else {
      taken[i] = true;
      order.push(i);
      for (const v of outputs) {
        if (bound.has(v)) continue;
        bound.add(v);
        // Literals after this one are still ahead in this pass; the others, in the next.
        for (const j of waiting.get(v) ?? []) {
          if (taken[j]) continue;
          if (j > i && !inNow[j]) {
            inNow[j] = true;
            now.push(j);
          } else if (j < i && !inLater[j]) {
            inLater[j] = true;
            later.push(j);
          }
        }
        waiting.delete(v);
      }
    }
    if (now.size === 0) {
      [now, later] = [later, now];
      [inNow, inLater] = [inLater, inNow];
    }
  }
  return order;
}

function watch(waiting: Map<string, number[]>, v: string, i: number): void {
  const list = waiting.get(v);
  if (list) list.push(i);
  else waiting.set(v, [i]);
}

/** A binary min-heap of literal indexes: a pass takes its literals in source order. */
class IndexHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(x: number): void {
    const a = this.items;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((a[parent] as number) <= x) break;
      a[i] = a[parent] as number;
      i = parent;
    }
    a[i] = x;
  }

  /** The smallest index; the heap must not be empty. */
  pop(): number {
    const a = this.items;
    const top = a[0] as number;
    const last = a.pop() as number;
    if (a.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= a.length) break;
      const r = l + 1;
      const c = r < a.length && (a[r] as number) < (a[l] as number) ? r : l;
      if ((a[c] as number) >= last) break;
      a[i] = a[c] as number;
      i = c;
    }
    a[i] = last;
    return top;
  }
}
