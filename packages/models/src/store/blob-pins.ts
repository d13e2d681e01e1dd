/**
 * Blobs that an operation in progress relies on (a create between reading its sources
 * and writing its manifest). Deleting a model never removes a pinned blob, so the normal
 * upload-then-create flow and a create inheriting from a model being deleted both stay
 * consistent.
 */
export class BlobPins {
  private readonly counts = new Map<string, number>();

  /** Starts a lease; pin digests on it as the operation learns them, release when done. */
  lease(): BlobLease {
    const held: string[] = [];
    let released = false;
    return {
      pin: (digest: string) => {
        if (released) return;
        held.push(digest);
        this.counts.set(digest, (this.counts.get(digest) ?? 0) + 1);
      },
      release: () => {
        if (released) return;
        released = true;
        for (const d of held) {
          const n = (this.counts.get(d) ?? 1) - 1;
          if (n > 0) this.counts.set(d, n);
          else this.counts.delete(d);
        }
      },
    };
  }

  /** True while any lease pins the digest. */
  has(digest: string): boolean {
    return this.counts.has(digest);
  }
}

/** One operation's pins. `release` is idempotent. */
export interface BlobLease {
  pin(digest: string): void;
  release(): void;
}
