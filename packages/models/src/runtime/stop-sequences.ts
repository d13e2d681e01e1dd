/**
 * Stop sequences matched on the decoded text, the way Ollama's runner does it: pieces are
 * held back while the text ends with the start of some stop sequence, released as soon as it
 * no longer does, and cut just before the first stop sequence found (which is not returned).
 * A stop sequence can therefore span token boundaries and contain spaces.
 */
export class StopSequenceFilter {
  private pending = "";
  private found = false;

  /** `stops` in the request's order: the first one present in the text wins. */
  constructor(
    private readonly stops: readonly string[],
    private readonly emit: (text: string) => void,
  ) {}

  /** True once a stop sequence was found; later pieces are ignored. */
  get stopped(): boolean {
    return this.found;
  }

  /** Adds generated text; returns true when it completed a stop sequence. */
  push(piece: string): boolean {
    if (this.found || piece === "") return this.found;
    this.pending += piece;
    for (const stop of this.stops) {
      const at = this.pending.indexOf(stop);
      if (at === -1) continue;
      this.found = true;
      this.release(this.pending.slice(0, at));
      this.pending = "";
      return true;
    }
    if (!this.endsWithStopStart()) this.flush();
    return false;
  }

  /** Releases the text held back (the end of generation, or a partial match that failed). */
  flush(): void {
    const text = this.pending;
    this.pending = "";
    this.release(text);
  }

  private release(text: string): void {
    if (text !== "") this.emit(text);
  }

  /** Whether the pending text ends with a proper prefix of any stop sequence. */
  private endsWithStopStart(): boolean {
    for (const stop of this.stops) {
      const longest = Math.min(stop.length - 1, this.pending.length);
      for (let n = longest; n >= 1; n--) {
        if (this.pending.endsWith(stop.slice(0, n))) return true;
      }
    }
    return false;
  }
}
