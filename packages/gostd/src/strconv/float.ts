/**
 * Go's float formatting (`%e`, `%f`, `%g`, `%x`, `%b` and `%v` of a float64), as
 * strconv.FormatFloat writes it: two-digit exponents, shortest digits for `%v`, and correct
 * rounding of the exact binary value with ties to even when a precision is given. The
 * `format*` functions take a non-negative finite x; `formatFloat` takes any float64.
 */

/** strconv.FormatFloat(x, 'g', -1, 64), as fmt's `%v` prints a float64: shortest digits. */
export function formatFloat(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "+Inf" : "-Inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  return sign + formatGeneral(Math.abs(x), -1);
}

/** Decimal digits and the position of the decimal point: value = 0.d1d2... × 10^point. */
interface Digits {
  digits: string;
  point: number;
}

/** The exact decimal expansion of a finite, non-negative double. */
function exactDigits(x: number): Digits {
  if (x === 0) return { digits: "0", point: 1 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exp2 = (biased === 0 ? 1 : biased) - 1075;
  let digits: string;
  let point: number;
  if (exp2 >= 0) {
    digits = (mantissa << BigInt(exp2)).toString();
    point = digits.length;
  } else {
    // m × 2^-k = m × 5^k / 10^k
    digits = (mantissa * 5n ** BigInt(-exp2)).toString();
    point = digits.length + exp2;
  }
  const trimmed = digits.replace(/0+$/, "");
  return { digits: trimmed, point };
}

/** Rounds digits to `n` digits (n may be 0 or negative), ties to even. */
function roundTo(d: Digits, n: number): Digits {
  if (n >= d.digits.length) return d;
  if (n < 0) return { digits: "0", point: d.point };
  const next = d.digits.charCodeAt(n) - 48;
  const rest = d.digits.slice(n + 1);
  const prevOdd = n > 0 && (d.digits.charCodeAt(n - 1) - 48) % 2 === 1;
  const up = next > 5 || (next === 5 && (/[1-9]/.test(rest) || prevOdd));
  let kept = d.digits.slice(0, n);
  if (!up) return { digits: kept || "0", point: kept ? d.point : d.point };
  let point = d.point;
  if (kept === "") {
    kept = "1";
    point++;
  } else {
    const bumped = (BigInt(kept) + 1n).toString();
    if (bumped.length > kept.length) point++;
    kept = bumped.slice(0, n);
  }
  return { digits: kept, point };
}

/** Shortest round-trip digits (prec < 0), or `significant` digits correctly rounded. */
function significantDigits(x: number, significant: number): Digits {
  if (x === 0) return { digits: "0", point: 1 };
  if (significant < 0) {
    const [mantissa, exp] = x.toExponential().split("e") as [string, string];
    return { digits: mantissa.replace(".", ""), point: Number(exp) + 1 };
  }
  return roundTo(exactDigits(x), significant);
}

function exponentText(exp: number, upper: boolean): string {
  const e = `${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return `${upper ? "E" : "e"}${e}`;
}

/** `%e` of a non-negative finite x with `prec` digits after the point. */
export function formatExp(x: number, prec: number, upper = false): string {
  const d = significantDigits(x, prec + 1);
  const digits = d.digits.padEnd(prec + 1, "0");
  const mantissa = prec > 0 ? `${digits[0]}.${digits.slice(1)}` : (digits[0] as string);
  return mantissa + exponentText(x === 0 ? 0 : d.point - 1, upper);
}

/** `%f` of a non-negative finite x with `prec` digits after the point. */
export function formatFixed(x: number, prec: number): string {
  if (prec <= 20 && x < 1e21 && !mayTie(x, prec)) return x.toFixed(prec);
  const exact = exactDigits(x);
  const d = roundTo(exact, exact.point + prec);
  return placePoint(d.digits === "0" ? "" : d.digits, d.point, prec);
}

/**
 * Whether x might lie exactly halfway between two `prec`-digit decimals, where JS's toFixed
 * (ties away from zero) and Go (ties to even) differ. A tie needs x·2·10^prec to be an odd
 * integer; below 2^53 that product is computed exactly, above it we cannot tell cheaply.
 */
function mayTie(x: number, prec: number): boolean {
  const y = x * 2 * 10 ** prec;
  return y >= 2 ** 53 || (Number.isInteger(y) && y % 2 === 1);
}

/** Writes digits with the point at `point`, padded to `frac` fractional digits. */
function placePoint(digits: string, point: number, frac: number): string {
  let intPart: string;
  let fracPart: string;
  if (point <= 0) {
    intPart = "0";
    fracPart = "0".repeat(-point) + digits;
  } else if (point >= digits.length) {
    intPart = digits + "0".repeat(point - digits.length);
    fracPart = "";
  } else {
    intPart = digits.slice(0, point);
    fracPart = digits.slice(point);
  }
  fracPart = fracPart.padEnd(frac, "0").slice(0, frac);
  return frac > 0 ? `${intPart || "0"}.${fracPart}` : intPart || "0";
}

/**
 * `%g` of a non-negative finite x: `prec` significant digits (shortest when negative),
 * exponent form when the exponent is below -4 or at least the precision (6 for shortest).
 * `sharp` keeps trailing zeros.
 */
export function formatGeneral(x: number, prec: number, upper = false, sharp = false): string {
  const shortest = prec < 0;
  const significant = shortest ? -1 : prec === 0 ? 1 : prec;
  const d = significantDigits(x, significant);
  let digits = d.digits;
  if (!sharp) digits = digits.replace(/(.)0+$/, "$1");
  else if (!shortest) digits = digits.padEnd(significant, "0");
  let eprec = shortest ? 6 : significant;
  if (!shortest && eprec > digits.length && digits.length >= d.point) eprec = digits.length;
  const exp = x === 0 ? 0 : d.point - 1;
  if (exp < -4 || exp >= eprec) {
    const mantissa = digits.length > 1 || sharp ? `${digits[0]}.${digits.slice(1)}` : digits;
    return mantissa + exponentText(exp, upper);
  }
  return placePoint(digits, x === 0 ? 1 : d.point, Math.max(digits.length - d.point, 0));
}

/** The 53-bit significand and binary exponent of a finite non-negative double: x = m × 2^e. */
function binaryParts(x: number): { mantissa: bigint; exponent: number; subnormal: boolean } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (biased === 0) return { mantissa: fraction, exponent: -1074, subnormal: true };
  return { mantissa: fraction | (1n << 52n), exponent: biased - 1075, subnormal: false };
}

/** `%b` of a non-negative finite x: decimal significand, `p`, binary exponent (strconv 'b'). */
export function formatBinaryExp(x: number): string {
  const { mantissa, exponent } = binaryParts(x);
  return `${mantissa}p${exponent >= 0 ? "+" : ""}${exponent}`;
}

/**
 * `%x` of a non-negative finite x: `0x1.<hex>p±dd` with the significand normalised to a
 * leading 1, shortest digits unless `prec` is given (then rounded, ties to even).
 */
export function formatHexFloat(x: number, prec: number, upper = false): string {
  let { mantissa, exponent } = binaryParts(x);
  if (mantissa === 0n) exponent = 0;
  else {
    while (mantissa < 1n << 52n) {
      mantissa <<= 1n;
      exponent--;
    }
    exponent += 52;
  }
  let fraction = mantissa & ((1n << 52n) - 1n);
  let lead = mantissa === 0n ? 0n : 1n;
  let digits: number;
  if (prec >= 0 && prec < 13) {
    const drop = BigInt(52 - 4 * prec);
    const kept = fraction >> drop;
    const rest = fraction & ((1n << drop) - 1n);
    const half = drop > 0n ? 1n << (drop - 1n) : 0n;
    let rounded = kept;
    if (drop > 0n && (rest > half || (rest === half && (kept & 1n) === 1n))) rounded++;
    if (rounded >> BigInt(4 * prec) !== 0n) {
      rounded = 0n;
      lead = 1n;
      exponent++;
    }
    fraction = rounded;
    digits = prec;
  } else {
    digits = 13;
  }
  let hex = digits > 0 ? fraction.toString(16).padStart(digits, "0") : "";
  if (prec < 0) hex = hex.replace(/0+$/, "");
  else hex = hex.padEnd(prec, "0");
  const exp = `${exponent >= 0 ? "+" : "-"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  const out = `0x${lead}${hex ? `.${hex}` : ""}p${exp}`;
  return upper ? out.toUpperCase() : out;
}
