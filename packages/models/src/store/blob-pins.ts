/**
 * Blobs that an operation in progress relies on (a create between reading its sources
 * and writing its manifest). Deleting a model never removes a pinned blob, so the normal
 * upload-then-create flow and a create inheriting from a model being deleted both stay
 * consistent.
 */
export class BlobPins {
  private readonly counts = new Map<string, number>();

  /** `onUnpinned` hears each digest whose last pin is released (a removal it held back). */
  constructor(private readonly onUnpinned: (digest: string) => void = () => {}) {}

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
          else {
            this.counts.delete(d);
            this.onUnpinned(d);
          }
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
