/**
 * Go duration strings ("1h30m", "-1.5s", "300ms"), parsed as Go's time.ParseDuration does,
 * with its units and error texts, into a nanosecond count.
 */

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const LIMIT = 1n << 63n;

/** A duration that Go would reject; the message is Go's. */
export class DurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DurationError";
  }
}

/** Parses a Go duration into nanoseconds (int64 range). */
export function parseGoDuration(text: string): bigint {
  const invalid = (): never => {
    throw new DurationError(`time: invalid duration ${JSON.stringify(text)}`);
  };
  let s = text;
  let negative = false;
  if (s[0] === "-" || s[0] === "+") {
    negative = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") invalid();
  let total = 0n;
  while (s !== "") {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s) as RegExpExecArray;
    const whole = m[1] as string;
    const fraction = m[2];
    if (whole === "" && (fraction === undefined || fraction === "")) invalid();
    s = s.slice(m[0].length);
    const unitMatch = /^[^.\d]*/.exec(s) as RegExpExecArray;
    const unitText = unitMatch[0];
    if (unitText === "")
      throw new DurationError(`time: missing unit in duration ${JSON.stringify(text)}`);
    s = s.slice(unitText.length);
    const unit = UNITS[unitText];
    if (unit === undefined) {
      throw new DurationError(
        `time: unknown unit ${JSON.stringify(unitText)} in duration ${JSON.stringify(text)}`,
      );
    }
    let v = whole === "" ? 0n : BigInt(whole);
    if (v > LIMIT / unit) invalid();
    v *= unit;
    if (fraction) {
      // Go scales the fraction in float64; do the same so results agree digit for digit.
      const scaled = Number(`0.${fraction}`) * Number(unit);
      v += BigInt(Math.trunc(scaled));
      if (v > LIMIT) invalid();
    }
    total += v;
    if (total > LIMIT) invalid();
  }
  if (negative) return -total;
  if (total > LIMIT - 1n) invalid();
  return total;
}
