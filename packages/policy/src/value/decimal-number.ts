/**
 * A number that keeps the decimal text OPA keeps for it. OPA holds every number as text
 * (a json.Number): literals as written (`0.00`, `1.50`) and float results as Go's big.Float
 * prints them (`0.3 - 0.2` is `0.10000000000000000001`). Plain JS numbers print the same
 * text for nearly every value, so only numbers whose text differs from their double's
 * shortest text are boxed in this class; integers and ordinary floats stay plain numbers.
 * Equality follows OPA's comparison of the exact decimal values, so `1.0 == 1` but
 * `0.3 - 0.2 != 0.1`.
 */

/** An exact decimal: (-1)^neg × digits × 10^exp, digits without trailing zeros. */
export interface Decimal {
  readonly neg: boolean;
  readonly digits: bigint;
  readonly exp: number;
}

/** Parses decimal number text (JSON, Rego or JS form); undefined when it is not one. */
export function parseDecimalText(text: string): Decimal | undefined {
  const m = /^([-+])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const [, sign, whole = "", frac = "", e = "0"] = m;
  let digits = BigInt(`${whole}${frac}` || "0");
  let exp = Number(e) - frac.length;
  if (digits === 0n) return { neg: false, digits: 0n, exp: 0 };
  while (digits % 10n === 0n) {
    digits /= 10n;
    exp += 1;
  }
  return { neg: sign === "-", digits, exp };
}

/** Compares two exact decimals: negative, zero or positive. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const sa = a.digits === 0n ? 0 : a.neg ? -1 : 1;
  const sb = b.digits === 0n ? 0 : b.neg ? -1 : 1;
  if (sa !== sb || sa === 0) return sa - sb;
  // Same sign: compare magnitudes, cheaply by digit count and exponent when they differ.
  const la = a.digits.toString().length + a.exp;
  const lb = b.digits.toString().length + b.exp;
  let mag: number;
  if (la !== lb) mag = la < lb ? -1 : 1;
  else {
    const exp = Math.min(a.exp, b.exp);
    const x = a.digits * 10n ** BigInt(a.exp - exp);
    const y = b.digits * 10n ** BigInt(b.exp - exp);
    mag = x < y ? -1 : x > y ? 1 : 0;
  }
  return sa < 0 ? -mag : mag;
}

/** A canonical text for an exact decimal: equal decimals give equal keys. */
export function decimalKey(d: Decimal): string {
  return `${d.neg ? "-" : ""}${d.digits}e${d.exp}`;
}

/** Prefix of the string JSON.stringify writes for a number's text, removed afterwards. */
export const NUMBER_TEXT_MARK = "\u0000big:";

/** Unquotes the number texts that JSON.stringify wrote as marker strings. */
export function unmarkNumberTexts(json: string): string {
  return json.includes("\\u0000big:") ? json.replace(/"\\u0000big:(-?[\d.eE+-]+)"/g, "$1") : json;
}

/** A Rego number with OPA's text; `value` is the nearest double. */
export class DecimalNumber {
  private exactCache: Decimal | undefined;
  private sameCache: boolean | undefined;

  constructor(
    readonly value: number,
    readonly text: string,
  ) {}

  toString(): string {
    return this.text;
  }

  /**
   * JSON.stringify writes a marker string that the JSON writers (stringifyJSON, the
   * server's jsonText) turn back into the bare number text, as they do for big integers.
   */
  toJSON(): string {
    return `${NUMBER_TEXT_MARK}${this.text}`;
  }

  /** The exact decimal value of the text. */
  get exact(): Decimal {
    if (this.exactCache === undefined) {
      this.exactCache = parseDecimalText(this.text) ?? { neg: false, digits: 0n, exp: 0 };
    }
    return this.exactCache;
  }

  /** True when the text means exactly the double's shortest text (`1.0` and 1, `0.00` and 0). */
  get sameAsDouble(): boolean {
    if (this.sameCache === undefined) {
      const plain = parseDecimalText(String(this.value));
      this.sameCache = plain !== undefined && compareDecimals(plain, this.exact) === 0;
    }
    return this.sameCache;
  }
}
