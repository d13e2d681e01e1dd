/**
 * Float arithmetic the way OPA does it: OPA keeps numbers as decimal text and computes with
 * Go's big.Float, which parses the text into a 64-bit mantissa (not a double's 53 bits) and
 * rounds every result to 64 bits. That is why `0.1 + 0.2 == 0.3` and `1.1 * 1.1 == 1.21`
 * hold in OPA while plain doubles disagree. We redo those steps exactly with bigints, starting
 * from a number's shortest decimal text (what a Rego literal was written as), and only round
 * to a double at the end.
 */

/** Mantissa width of Go's big.Float when parsed from text with default precision. */
const PRECISION = 64;

/** A binary float: (-1)^neg × mant × 2^exp, mant either 0 or exactly PRECISION bits wide. */
export interface BigFloat {
  readonly neg: boolean;
  readonly mant: bigint;
  readonly exp: number;
}

const ZERO: BigFloat = { neg: false, mant: 0n, exp: 0 };

/** Number of bits of a non-negative bigint. */
function bitLength(n: bigint): number {
  if (n === 0n) return 0;
  const approx = Number(n);
  if (approx < 2 ** 1000) {
    // The estimate can be one off when rounding n to a double reaches a power of two.
    const bits = Math.floor(Math.log2(approx)) + 1;
    if (n >> BigInt(bits - 1) === 0n) return bits - 1;
    return n >> BigInt(bits) === 0n ? bits : bits + 1;
  }
  const hex = n.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(Number.parseInt(hex[0] as string, 16)));
}

const powersOfTen: bigint[] = [1n];

/** 10^k, memoised: decimal exponents repeat a lot. */
function powerOfTen(k: number): bigint {
  for (let i = powersOfTen.length; i <= k; i++)
    powersOfTen.push((powersOfTen[i - 1] as bigint) * 10n);
  return powersOfTen[k] as bigint;
}

/** Rounds num/den × 2^exp2 (num, den > 0) to PRECISION bits, ties to even. */
function roundRational(neg: boolean, num: bigint, den: bigint, exp2: number): BigFloat {
  if (num === 0n) return ZERO;
  // Scale so that the integer quotient has PRECISION or PRECISION + 1 bits.
  const shift = PRECISION - (bitLength(num) - bitLength(den));
  const n = shift >= 0 ? num << BigInt(shift) : num;
  let d = shift >= 0 ? den : den << BigInt(-shift);
  let q = n / d;
  let r = n % d;
  let exp = exp2 - shift;
  if (bitLength(q) > PRECISION) {
    // Halve: the dropped low bit joins the remainder, value = q' + r'/(2d).
    r += (q & 1n) * d;
    d *= 2n;
    q >>= 1n;
    exp += 1;
  }
  const twice = 2n * r;
  if (twice > d || (twice === d && (q & 1n) === 1n)) {
    q += 1n;
    if (bitLength(q) > PRECISION) {
      q >>= 1n;
      exp += 1;
    }
  }
  return { neg, mant: q, exp };
}

/** Parses decimal number text (as JS prints numbers) into a 64-bit big float. */
export function parseDecimal(text: string): BigFloat {
  const m = /^(-)?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m) throw new RangeError(`not a decimal number: ${text}`);
  const [, sign, whole = "", frac = "", exp = "0"] = m;
  const digits = BigInt(`${whole}${frac}` || "0");
  const exp10 = Number(exp) - frac.length;
  if (exp10 >= 0) return roundRational(sign === "-", digits * powerOfTen(exp10), 1n, 0);
  return roundRational(sign === "-", digits, powerOfTen(-exp10), 0);
}

/** A number as OPA would hold it: its decimal text (kept or the double's), parsed. */
export function toBigFloat(x: number | bigint | { readonly text: string }): BigFloat {
  if (typeof x === "bigint") return roundRational(x < 0n, x < 0n ? -x : x, 1n, 0);
  return parseDecimal(typeof x === "number" ? String(x) : x.text);
}

/** The double nearest to the exact value (overflow gives ±Infinity, which callers refuse). */
function nearestDouble(x: BigFloat): number {
  if (x.mant === 0n) return 0;
  let v = Number(x.mant);
  let e = x.exp;
  // Scale in steps so that intermediate powers of two stay representable.
  while (e > 0) {
    const step = Math.min(e, 1000);
    v *= 2 ** step;
    e -= step;
  }
  while (e < 0) {
    const step = Math.max(e, -1000);
    v *= 2 ** step;
    e -= step;
  }
  return x.neg ? -v : v;
}

/**
 * The double OPA ends up with. OPA writes a big float as its shortest decimal text, and that
 * text is what becomes a double later. Rounding the 64-bit value straight to 53 bits gives the
 * same double unless the value sits at a midpoint between two doubles (its 11 extra bits are
 * about 0x400); only then is the shortest text worked out.
 */
export function toDouble(x: BigFloat): number {
  const direct = nearestDouble(x);
  const extraBits = Number(x.mant & 0x7ffn);
  if (Math.abs(extraBits - 0x400) > 1 || !Number.isFinite(direct) || direct === 0) return direct;
  return Number(shortestDecimal(x, direct));
}

/**
 * The shortest decimal text that reads back (at 64 bits) as `x`, as Go's big.Float prints
 * with Text('g', -1): for each length, the nearest decimal of that many digits is tried.
 */
function shortestDecimal(x: BigFloat, approx: number): string {
  const num = x.exp >= 0 ? x.mant << BigInt(x.exp) : x.mant;
  const den = x.exp >= 0 ? 1n : 1n << BigInt(-x.exp);
  const magnitude = Math.floor(Math.log10(Math.abs(approx)));
  for (let digits = 1; digits <= 25; digits++) {
    const text = nearestDecimal(num, den, digits, magnitude);
    const back = parseDecimal(text);
    if (back.mant === x.mant && back.exp === x.exp) return x.neg ? `-${text}` : text;
  }
  return String(approx);
}

/** num/den rounded (ties to even) to `digits` significant digits, as `<int>e<exp>` text. */
function nearestDecimal(num: bigint, den: bigint, digits: number, magnitude: number): string {
  for (let k = magnitude - digits + 1; ; k++) {
    const n = k >= 0 ? num : num * powerOfTen(-k);
    const d = k >= 0 ? den * powerOfTen(k) : den;
    let q = n / d;
    const twice = 2n * (n % d);
    if (twice > d || (twice === d && (q & 1n) === 1n)) q += 1n;
    // A magnitude estimate one too low gives one digit too many: retry one place up.
    if (q.toString().length <= digits) return `${q}e${k}`;
  }
}

function signed(x: BigFloat, shift: number): bigint {
  const m = x.mant << BigInt(shift);
  return x.neg ? -m : m;
}

/** a + b, rounded to 64 bits. */
export function addBig(a: BigFloat, b: BigFloat): BigFloat {
  if (a.mant === 0n) return b;
  if (b.mant === 0n) return a;
  const exp = Math.min(a.exp, b.exp);
  const sum = signed(a, a.exp - exp) + signed(b, b.exp - exp);
  return sum < 0n ? roundRational(true, -sum, 1n, exp) : roundRational(false, sum, 1n, exp);
}

/** -a. */
export function negateBig(a: BigFloat): BigFloat {
  return a.mant === 0n ? a : { ...a, neg: !a.neg };
}

/** a × b, rounded to 64 bits. */
export function multiplyBig(a: BigFloat, b: BigFloat): BigFloat {
  if (a.mant === 0n || b.mant === 0n) return ZERO;
  return roundRational(a.neg !== b.neg, a.mant * b.mant, 1n, a.exp + b.exp);
}

/** a ÷ b (b non-zero), rounded to 64 bits. */
export function divideBig(a: BigFloat, b: BigFloat): BigFloat {
  if (a.mant === 0n) return ZERO;
  return roundRational(a.neg !== b.neg, a.mant, b.mant, a.exp - b.exp);
}

/** True when the big float has no fractional part. */
export function isIntegralBig(x: BigFloat): boolean {
  if (x.exp >= 0 || x.mant === 0n) return true;
  return -x.exp < PRECISION && (x.mant & ((1n << BigInt(-x.exp)) - 1n)) === 0n;
}

/** The integer a big float holds (callers make sure it is integral). */
export function bigFloatToInteger(x: BigFloat): bigint {
  const m = x.exp >= 0 ? x.mant << BigInt(x.exp) : x.mant >> BigInt(-x.exp);
  return x.neg ? -m : m;
}
