/** TextSink: where a command or a logger writes text (stdout, stderr, or a test's buffer). */

/**
 * Anything with `write(text)`: `process.stdout` as it is, a PassThrough, or a test's
 * `{ write: (t) => (out += t) }`. An object rather than a bare function, so the real streams
 * need no wrapping and can say whether they are a terminal.
 */
export interface TextSink {
  write(text: string): unknown;
  /** True on a terminal: progress bars and text logs instead of plain lines and JSON. */
  readonly isTTY?: boolean;
  /** Terminal width, when it is one. */
  readonly columns?: number;
}
