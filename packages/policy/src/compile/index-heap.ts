/** A binary min-heap of indexes: the safety pass takes the waiting literals in source order. */
export class IndexHeap {
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
