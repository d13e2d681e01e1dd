/**
 * The `time.*` builtins: nanosecond instants (bigint inside, int64 range outside), Go
 * reference-time layouts, Go durations and IANA time zones, with OPA's error texts.
 */

import { DurationError, parseGoDuration } from "@quintet/gostd/time";
import { BuiltinError } from "../../errors.js";
import { isNumber, normalizeNumber, plainNumber, type RegoNumber } from "../../value/number.js";
import type { Value } from "../../value/value.js";
import { asInteger, asNumber, asString, oneOfError } from "../args.js";
import type { BuiltinDef } from "../registry-types.js";
import { civilAt, daysFromCivil, inNsRange, instantFromCivil, type Zone } from "./civil.js";
import { formatGoTime } from "./go-format.js";
import { LONG_WEEKDAYS, NAMED_LAYOUTS, resolveLayout } from "./go-layout.js";
import { parseGoTime, TimeParseError } from "./go-parse.js";
import { loadZone, UnknownZoneError, UTC } from "./zones.js";

/** A time operand: `ns`, `[ns, tz]` or `[ns, tz, layout]`. */
interface ZonedTime {
  ns: bigint;
  zone: Zone;
  layout: string;
}

/** Runs `fn`, turning the time helpers' own errors into builtin errors named after `name`. */
function guarded<T>(name: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (
      e instanceof TimeParseError ||
      e instanceof DurationError ||
      e instanceof UnknownZoneError
    ) {
      throw new BuiltinError(`${name}: ${e.message}`);
    }
    throw e;
  }
}

/** The int64 nanosecond count of a number operand; floats and huge values are "too big". */
function nanosOf(name: string, v: RegoNumber): bigint {
  const n = plainNumber(v);
  if (typeof n === "bigint") {
    if (!inNsRange(n)) throw new BuiltinError(`${name}: timestamp too big`);
    return n;
  }
  if (!Number.isInteger(n) || !inNsRange(BigInt(n)))
    throw new BuiltinError(`${name}: timestamp too big`);
  return BigInt(n);
}

/** Reads OPA's time operand: a number, or an array of number, zone name and layout. */
function zonedTime(name: string, v: Value, pos: number): ZonedTime {
  if (!Array.isArray(v)) {
    if (isNumber(v)) {
      return { ns: nanosOf(name, v), zone: UTC, layout: NAMED_LAYOUTS.RFC3339Nano as string };
    }
    throw oneOfError(name, pos, ["number", "array"], v);
  }
  if (v.length === 0) {
    throw new BuiltinError(
      `${name}: operand ${pos} must be either number (ns) or [number (ns), string (tz)]`,
    );
  }
  const ns = nanosOf(name, asNumber(name, v[0] as Value, pos));
  const zone =
    v.length > 1 ? guarded(name, () => loadZone(asString(name, v[1] as Value, pos))) : UTC;
  const layout =
    v.length > 2
      ? resolveLayout(asString(name, v[2] as Value, pos))
      : (NAMED_LAYOUTS.RFC3339Nano as string);
  return { ns, zone, layout };
}

/** A computed instant as a Rego number, or OPA's range error. */
function instantResult(name: string, ns: bigint): Value {
  if (!inNsRange(ns)) throw new BuiltinError(`${name}: time outside of valid range`);
  return normalizeNumber(ns);
}

function intOperand(name: string, v: Value, pos: number): number {
  const n = asInteger(name, v, pos);
  return typeof n === "bigint" ? Number(n) : n;
}

/** Go's date difference (as OPA's time.diff): years, months, days, hours, minutes, seconds. */
function dateDiff(a: ZonedTime, b: ZonedTime): number[] {
  const [first, second] = a.ns <= b.ns ? [a.ns, b.ns] : [b.ns, a.ns];
  const t1 = civilAt(first, a.zone);
  const t2 = civilAt(second, a.zone);
  let year = t2.year - t1.year;
  let month = t2.month - t1.month;
  let day = t2.day - t1.day;
  let hour = t2.hour - t1.hour;
  let minute = t2.minute - t1.minute;
  let sec = t2.second - t1.second;
  if (sec < 0) [sec, minute] = [sec + 60, minute - 1];
  if (minute < 0) [minute, hour] = [minute + 60, hour - 1];
  if (hour < 0) [hour, day] = [hour + 24, day - 1];
  if (day < 0) {
    // Days in t1's month, found as Go does: day 32 of that month overflows by 32 - length.
    const overflow =
      daysFromCivil(t1.year, t1.month, 32) - daysFromCivil(t1.year, t1.month + 1, 1) + 1;
    day += 32 - overflow;
    month--;
  }
  if (month < 0) [month, year] = [month + 12, year - 1];
  return [year, month, day, hour, minute, sec];
}

export const timeBuiltins: BuiltinDef[] = [
  {
    name: "time.now_ns",
    args: [],
    result: "number",
    nondeterministic: true,
    impl: (_args, ctx) => normalizeNumber(ctx.nowNs),
  },
  {
    name: "time.parse_ns",
    args: ["string", "string"],
    result: "number",
    impl: ([layout, value]) => {
      const name = "time.parse_ns";
      const l = resolveLayout(asString(name, layout as Value, 1));
      const v = asString(name, value as Value, 2);
      return instantResult(
        name,
        guarded(name, () => parseGoTime(l, v)),
      );
    },
  },
  {
    name: "time.parse_rfc3339_ns",
    args: ["string"],
    result: "number",
    impl: ([value]) => {
      const name = "time.parse_rfc3339_ns";
      const v = asString(name, value as Value, 1);
      return instantResult(
        name,
        guarded(name, () => parseGoTime(NAMED_LAYOUTS.RFC3339 as string, v)),
      );
    },
  },
  {
    name: "time.parse_duration_ns",
    args: ["string"],
    result: "number",
    impl: ([value]) => {
      const name = "time.parse_duration_ns";
      const v = asString(name, value as Value, 1);
      return normalizeNumber(guarded(name, () => parseGoDuration(v)));
    },
  },
  {
    name: "time.format",
    args: ["number | array"],
    result: "string",
    impl: ([x]) => {
      const t = zonedTime("time.format", x as Value, 1);
      return formatGoTime(civilAt(t.ns, t.zone), t.layout);
    },
  },
  {
    name: "time.date",
    args: ["number | array"],
    result: "array[number]",
    impl: ([x]) => {
      const t = zonedTime("time.date", x as Value, 1);
      const c = civilAt(t.ns, t.zone);
      return [c.year, c.month, c.day];
    },
  },
  {
    name: "time.clock",
    args: ["number | array"],
    result: "array[number]",
    impl: ([x]) => {
      const t = zonedTime("time.clock", x as Value, 1);
      const c = civilAt(t.ns, t.zone);
      return [c.hour, c.minute, c.second];
    },
  },
  {
    name: "time.weekday",
    args: ["number | array"],
    result: "string",
    impl: ([x]) => {
      const t = zonedTime("time.weekday", x as Value, 1);
      return LONG_WEEKDAYS[civilAt(t.ns, t.zone).weekday] as string;
    },
  },
  {
    name: "time.add_date",
    args: ["number", "number", "number", "number"],
    result: "number",
    impl: ([ns, years, months, days]) => {
      const name = "time.add_date";
      const start = nanosOf(name, asNumber(name, ns as Value, 1));
      const c = civilAt(start, UTC);
      const moved = instantFromCivil(
        {
          ...c,
          year: c.year + intOperand(name, years as Value, 2),
          month: c.month + intOperand(name, months as Value, 3),
          day: c.day + intOperand(name, days as Value, 4),
        },
        0,
      );
      return instantResult(name, moved);
    },
  },
  {
    name: "time.diff",
    args: ["number | array", "number | array"],
    result: "array[number]",
    impl: ([a, b]) =>
      dateDiff(zonedTime("time.diff", a as Value, 1), zonedTime("time.diff", b as Value, 2)),
  },
  {
    // OPA registers test.sleep for its own test suites; the compliance cases use it to show
    // that time.now_ns stays fixed within one query.
    name: "test.sleep",
    args: ["string"],
    result: "null",
    nondeterministic: true,
    impl: ([duration]) => {
      const name = "test.sleep";
      const ns = guarded(name, () => parseGoDuration(asString(name, duration as Value, 1)));
      const ms = Number(ns / 1_000_000n);
      if (ms > 0)
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(ms, 60_000));
      return null;
    },
  },
];
