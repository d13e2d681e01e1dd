/**
 * Go's fmt.Sprintf: walks the format string as Go's doPrintf does (flags, `[n]` indexes, `*`
 * operands, verbs, and the `%!verb(MISSING)`, `%!(EXTRA ...)`, `%!(NOVERB)` notes); verbs.ts
 * formats each operand. `sprintf` takes Go values (value.ts); `goSprintf` operands already
 * converted to fmt's view of them.
 */
import { formatValue } from "./print.js";
import { GoNamed, kindOf, numberOf, typeName, underlying } from "./value.js";
import { formatArg, type GoArg, goTypeName, plain, type Spec } from "./verbs.js";

/** Widths and precisions beyond this are treated as malformed, as Go does. */
const TOO_LARGE = 1_000_000;

/** Walks the format string like Go's doPrintf: flags, `[n]` indexes, `*` operands, verb. */
class Directives {
  private i = 0;
  private argNum = 0;
  private reordered = false;
  private goodArgNum = true;
  private out = "";

  constructor(
    private readonly format: string,
    private readonly args: GoArg[],
    /** Called with the output's length after each directive, to bound the result. */
    private readonly grown: (length: number) => void = () => {},
  ) {}

  run(): string {
    const { format } = this;
    while (this.i < format.length) {
      const pct = format.indexOf("%", this.i);
      if (pct < 0) {
        this.out += format.slice(this.i);
        break;
      }
      this.out += format.slice(this.i, pct);
      this.i = pct + 1;
      if (!this.directive()) break;
      this.grown(this.out.length);
    }
    if (!this.reordered && this.argNum < this.args.length) {
      const extra = this.args.slice(this.argNum).map((a) => `${goTypeName(a)}=${plain(a)}`);
      this.out += `%!(EXTRA ${extra.join(", ")})`;
    }
    return this.out;
  }

  /** Handles one directive after its `%`; false when the format ended without a verb. */
  private directive(): boolean {
    this.goodArgNum = true;
    const spec = this.flags();
    let afterIndex = this.argIndex();
    if (this.format[this.i] === "*") {
      this.i++;
      spec.width = this.intOperand("BADWIDTH");
      if (spec.width !== undefined && spec.width < 0) {
        spec.width = -spec.width;
        spec.minus = true;
        spec.zero = false;
      }
      afterIndex = false;
    } else {
      spec.width = this.number();
      if (afterIndex && spec.width !== undefined) this.goodArgNum = false;
    }
    if (this.i + 1 < this.format.length && this.format[this.i] === ".") {
      this.i++;
      if (afterIndex) this.goodArgNum = false;
      afterIndex = this.argIndex();
      if (this.format[this.i] === "*") {
        this.i++;
        const prec = this.intOperand("BADPREC", true);
        spec.prec = prec;
        afterIndex = false;
      } else spec.prec = this.number() ?? 0;
    }
    if (!afterIndex) afterIndex = this.argIndex();
    if (this.i >= this.format.length) {
      this.out += "%!(NOVERB)";
      return false;
    }
    spec.verb = String.fromCodePoint(this.format.codePointAt(this.i) as number);
    this.i += spec.verb.length;
    this.emit(spec);
    return true;
  }

  private emit(spec: Spec): void {
    const { verb } = spec;
    const arg = this.args[this.argNum];
    if (verb === "%") this.out += "%";
    else if (!this.goodArgNum) this.out += `%!${verb}(BADINDEX)`;
    else if (arg === undefined) this.out += `%!${verb}(MISSING)`;
    else if (verb === "T") {
      // Go prints the operand's type as a string, under the directive's width and flags.
      this.argNum++;
      this.out += formatArg({ kind: "string", value: goTypeName(arg) }, { ...spec, verb: "s" });
    } else {
      this.argNum++;
      if (verb === "v") {
        // %#v and %+v are Go-syntax and field forms: the flags move aside for plain values.
        spec.sharpV = spec.sharp;
        spec.sharp = false;
        spec.plusV = spec.plus;
        spec.plus = false;
      }
      this.out += formatArg(arg, spec);
    }
  }

  private flags(): Spec {
    const spec: Spec = {
      minus: false,
      plus: false,
      sharp: false,
      space: false,
      zero: false,
      verb: "",
    };
    for (; this.i < this.format.length; this.i++) {
      const c = this.format[this.i];
      if (c === "#") spec.sharp = true;
      else if (c === "0") spec.zero = !spec.minus;
      else if (c === "+") spec.plus = true;
      else if (c === " ") spec.space = true;
      else if (c === "-") {
        spec.minus = true;
        spec.zero = false;
      } else break;
    }
    return spec;
  }

  /** An explicit `[n]` argument index; true when one was read (even a bad one). */
  private argIndex(): boolean {
    if (this.format[this.i] !== "[") return false;
    this.reordered = true;
    const close = this.format.indexOf("]", this.i + 1);
    const text = close < 0 ? "" : this.format.slice(this.i + 1, close);
    if (close < 0 || this.format.length - this.i < 3 || !/^[0-9]+$/.test(text)) {
      this.i += close < 0 || this.format.length - this.i < 3 ? 1 : close - this.i + 1;
      this.goodArgNum = false;
      return false;
    }
    this.i = close + 1;
    const index = Number(text) - 1;
    if (index >= 0 && index < this.args.length && Number(text) <= TOO_LARGE) {
      this.argNum = index;
      return true;
    }
    this.goodArgNum = false;
    return true;
  }

  /** Decimal digits at the cursor, or undefined (also for absurdly large numbers). */
  private number(): number | undefined {
    const m = /^[0-9]+/.exec(this.format.slice(this.i));
    if (!m) return undefined;
    const n = Number(m[0]);
    if (n > TOO_LARGE * 10) {
      this.i = this.format.length;
      return undefined;
    }
    this.i += m[0].length;
    return n;
  }

  /** A `*` width or precision taken from the next operand, which must be an int. */
  private intOperand(bad: string, nonNegative = false): number | undefined {
    const a = this.args[this.argNum];
    if (a !== undefined) this.argNum++;
    let n: number | undefined;
    if (a?.kind === "int" && a.value >= BigInt(-TOO_LARGE) && a.value <= BigInt(TOO_LARGE))
      n = Number(a.value);
    if (nonNegative && n !== undefined && n < 0) n = undefined;
    if (n === undefined) this.out += `%!(${bad})`;
    return n;
  }
}

/** Go's fmt.Sprintf over already converted arguments. */
export function goSprintf(format: string, args: GoArg[], grown?: (length: number) => void): string {
  return new Directives(format, args, grown).run();
}

/** fmt's view of a Go value: basic kinds as themselves, anything else as its `%v` text. */
export function goArgOf(v: unknown): GoArg {
  const k = kindOf(v);
  const named = v instanceof GoNamed;
  const u = underlying(v);
  if (k === "int" && !named) return { kind: "int", value: BigInt(numberOf(v)) };
  if (k === "float" && !named) return { kind: "float", value: numberOf(v) };
  if (k === "bool" && !named) return { kind: "bool", value: u as boolean };
  if (k === "string" && !(v instanceof GoNamed && v.type.string))
    return named
      ? { kind: "string", value: u as string, type: typeName(v) }
      : { kind: "string", value: u as string };
  // Structs, slices, maps, nil and types with a String method print as their %v text.
  return { kind: "string", value: formatValue(v), type: typeName(v) };
}

/** Go's fmt.Sprintf over Go values. */
export function sprintf(format: string, args: readonly unknown[]): string {
  return goSprintf(format, args.map(goArgOf));
}
