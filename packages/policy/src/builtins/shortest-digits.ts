/**
 * The shortest decimal digits of a 64-bit big float, as Go's big.Float finds them for
 * Text('g', -1): the exact decimal expansions of the value and of the points half an ulp
 * below and above it are walked digit by digit until the value has set itself apart from
 * both; then it is cut there, rounding down, up or to the nearest as the bounds allow.
 */

/** Digits and decimal point: value = 0.d1d2… × 10^point. */
export interface DecimalDigits {
  digits: string;
  point: number;
}

/** The exact decimal expansion of m × 2^e (m > 0). */
function expansion(m: bigint, e: number): DecimalDigits {
  // m × 2^-k = m × 5^k / 10^k.
  const s = e >= 0 ? (m << BigInt(e)).toString() : (m * 5n ** BigInt(-e)).toString();
  const point = e >= 0 ? s.length : s.length + e;
  return { digits: s.replace(/0+$/, ""), point };
}

/**
 * The exact expansion when it has at most 17 significant digits: no shorter decimal lies
 * within half an ulp of 64 bits then (two such decimals differ by far more), so it is the
 * answer. Most results of short decimals are of this kind (42.5, 0.25), and cheap to expand
 * once the mantissa's trailing zero bits are dropped.
 */
function shortExpansion(mant: bigint, exp: number): DecimalDigits | undefined {
  const low = mant & -mant;
  const tz = low.toString(2).length - 1;
  const m = mant >> BigInt(tz);
  const e = exp + tz;
  // m × 5^-e has at least as many digits as 5^-e: 17 digits allow -e ≤ 24 at most.
  if (e < -24 || m > 1n << 57n) return undefined;
  const x = expansion(m, e);
  return x.digits.length <= 17 ? x : undefined;
}

/** Adds one at the last of `digits`, carrying ("99" gives "100"). */
function incremented(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === "9") i--;
  if (i < 0) return `1${"0".repeat(digits.length)}`;
  const bumped = String.fromCharCode(digits.charCodeAt(i) + 1);
  return `${digits.slice(0, i)}${bumped}${"0".repeat(digits.length - i - 1)}`;
}

/** `x` cut to `n` digits, rounded up or down (Go's decimal roundUp/roundDown). */
function cut(x: DecimalDigits, n: number, up: boolean): DecimalDigits {
  if (n >= x.digits.length) return x;
  const kept = x.digits.slice(0, n);
  if (!up) return { digits: kept.replace(/0+$/, ""), point: x.point };
  const next = incremented(kept);
  if (next.length > kept.length) return { digits: "1", point: x.point + 1 };
  return { digits: next.replace(/0+$/, ""), point: x.point };
}

/** Go's decimal rounding to nearest: a lone trailing 5 rounds to even. */
function roundsUp(d: string, n: number): boolean {
  const c = d[n];
  if (c === undefined || c < "5") return false;
  if (c === "5" && n + 1 === d.length) return n > 0 && ((d.charCodeAt(n - 1) - 48) & 1) === 1;
  return true;
}

/**
 * The shortest digits for a positive value mant × 2^exp, mant exactly 64 bits wide. The
 * three expansions are compared digit by digit from their first digits, as Go does.
 */
export function shortestOf(mant: bigint, exp: number): DecimalDigits {
  const exact = shortExpansion(mant, exp);
  if (exact !== undefined) return exact;
  // One more bit, so that half an ulp is 1 in the last place.
  const m2 = mant << 1n;
  const x = expansion(m2, exp - 1);
  const l = expansion(m2 - 1n, exp - 1).digits;
  const u = expansion(m2 + 1n, exp - 1).digits;
  const d = x.digits;
  const inclusive = (mant & 1n) === 0n;
  for (let i = 0; i < d.length; i++) {
    const m = d.charCodeAt(i);
    const li = i < l.length ? l.charCodeAt(i) : 48;
    const ui = i < u.length ? u.charCodeAt(i) : 48;
    const okDown = li !== m || (inclusive && i + 1 === l.length);
    const okUp = m !== ui && (inclusive || m + 1 < ui || i + 1 < u.length);
    if (okDown && okUp) return cut(x, i + 1, roundsUp(d, i + 1));
    if (okDown) return cut(x, i + 1, false);
    if (okUp) return cut(x, i + 1, true);
  }
  return x;
}
