/**
 * Parses text with a Go reference-time layout, as Go's time.Parse does: the same element
 * rules (one- or two-digit numbers, case-insensitive month names, optional fractional
 * seconds after a seconds element), the same range checks and the same error texts, which
 * OPA passes through in its builtin errors.
 */
import { daysFromCivil, daysInMonth, instantFromCivil, isLeapYear } from "./civil.js";
import {
  compileLayout,
  type LayoutChunk,
  type LayoutElement,
  LONG_MONTHS,
  LONG_WEEKDAYS,
} from "./go-layout.js";

/** A failed parse; the message is Go's ParseError text. */
export class TimeParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TimeParseError";
  }
}

const quote = (s: string): string => JSON.stringify(s);

interface Fields {
  year: number;
  month: number;
  day: number;
  yearDay: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  pm: boolean | undefined;
  offsetSeconds: number | undefined;
  zoneName: string;
}

/** Thrown inside one element: the element did not match (bad) or was out of range. */
class ElementError {
  constructor(readonly range?: string) {}
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** One or two digits (exactly two when `fixed`); returns the number and the rest. */
function getNum(s: string, fixed: boolean): [number, string] {
  if (!isDigit(s, 0)) throw new ElementError();
  if (!isDigit(s, 1)) {
    if (fixed) throw new ElementError();
    return [s.charCodeAt(0) - 48, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

/** Up to three digits (exactly three when `fixed`). */
function getNum3(s: string, fixed: boolean): [number, string] {
  let n = 0;
  let i = 0;
  while (i < 3 && isDigit(s, i)) n = n * 10 + (s.charCodeAt(i++) - 48);
  if (i === 0 || (fixed && i !== 3)) throw new ElementError();
  return [n, s.slice(i)];
}

/** Index of the name in `names` that `value` starts with (case-insensitive). */
function lookupName(names: string[], value: string): [number, string] {
  const lower = value.toLowerCase();
  for (let i = 0; i < names.length; i++) {
    const name = (names[i] as string).toLowerCase();
    if (lower.startsWith(name)) return [i, value.slice(name.length)];
  }
  throw new ElementError();
}

/** Matches literal layout text: a run of spaces matches one or more spaces. */
function skipLiteral(value: string, literal: string): string | undefined {
  let v = value;
  let p = literal;
  while (p.length > 0) {
    if (p[0] === " ") {
      if (v.length > 0 && v[0] !== " ") return undefined;
      p = p.replace(/^ +/, "");
      v = v.replace(/^ +/, "");
      continue;
    }
    if (v.length === 0 || v[0] !== p[0]) return undefined;
    p = p.slice(1);
    v = v.slice(1);
  }
  return v;
}

/** `.123…` of `length` bytes including the separator, scaled to nanoseconds. */
function parseNanos(value: string, length: number): number {
  if (value[0] !== "." && value[0] !== ",") throw new ElementError();
  const digits = value.slice(1, Math.min(length, 10));
  if (!/^\d+$/.test(digits)) throw new ElementError();
  return Number(digits.padEnd(9, "0"));
}

function parseOffset(element: LayoutElement, value: string, f: Fields): string {
  if (element.startsWith("iso8601") && value[0] === "Z") {
    f.offsetSeconds = 0;
    f.zoneName = "UTC";
    return value.slice(1);
  }
  const colon = element.includes("Colon");
  const withSeconds = element.includes("Seconds");
  const short = element.includes("Short");
  const len = short ? 3 : colon ? (withSeconds ? 9 : 6) : withSeconds ? 7 : 5;
  if (value.length < len) throw new ElementError();
  const text = value.slice(0, len);
  if (colon && (text[3] !== ":" || (withSeconds && text[6] !== ":"))) throw new ElementError();
  const digits = text.slice(1).replaceAll(":", "").padEnd(6, "0");
  if (!/^\d{6}$/.test(digits)) throw new ElementError();
  const [hh, mm, ss] = [
    Number(digits.slice(0, 2)),
    Number(digits.slice(2, 4)),
    Number(digits.slice(4, 6)),
  ];
  if (hh > 24) throw new ElementError("time zone offset hour");
  if (mm > 60) throw new ElementError("time zone offset minute");
  if (ss > 60) throw new ElementError("time zone offset second");
  const offset = hh * 3600 + mm * 60 + ss;
  if (text[0] === "+") f.offsetSeconds = offset;
  else if (text[0] === "-") f.offsetSeconds = -offset;
  else throw new ElementError();
  return value.slice(len);
}

/** A zone abbreviation such as MST, CEST or ChST; the offset stays unknown (UTC), as in Go. */
function parseZoneName(value: string, f: Fields): string {
  if (value.startsWith("UTC")) {
    f.zoneName = "UTC";
    f.offsetSeconds = 0;
    return value.slice(3);
  }
  if (value.startsWith("ChST") || value.startsWith("MeST")) {
    f.zoneName = value.slice(0, 4);
    return value.slice(4);
  }
  const gmt = /^GMT([+-]\d{1,2})?/.exec(value);
  if (gmt) {
    f.zoneName = gmt[0];
    f.offsetSeconds = gmt[1] ? Number(gmt[1]) * 3600 : 0;
    return value.slice(gmt[0].length);
  }
  const upper = /^[A-Z]{3,5}/.exec(value);
  if (!upper) throw new ElementError();
  const name = upper[0];
  if (name.length === 3 || name.endsWith("T")) {
    f.zoneName = name;
    return value.slice(name.length);
  }
  throw new ElementError();
}

function rangeCheck(n: number, min: number, max: number, what: string): number {
  if (n < min || n > max) throw new ElementError(what);
  return n;
}

type ElementChunk = Extract<LayoutChunk, { kind: "element" }>;

/**
 * Parses one date element (year, month, weekday, day, day of year) from the front of
 * `value` into `f`; returns the rest of `value`, or undefined for other elements.
 */
function parseDateElement(chunk: ElementChunk, value: string, f: Fields): string | undefined {
  let n: number;
  let rest: string;
  switch (chunk.element) {
    case "year":
      if (value.length < 2 || !/^\d\d/.test(value)) throw new ElementError();
      n = Number(value.slice(0, 2));
      f.year = n >= 69 ? 1900 + n : 2000 + n;
      return value.slice(2);
    case "longYear":
      if (value.length < 4 || !/^\d{4}/.test(value)) throw new ElementError();
      f.year = Number(value.slice(0, 4));
      return value.slice(4);
    case "month":
    case "longMonth": {
      const names = chunk.element === "month" ? LONG_MONTHS.map((m) => m.slice(0, 3)) : LONG_MONTHS;
      [n, rest] = lookupName(names, value);
      f.month = n + 1;
      return rest;
    }
    case "numMonth":
    case "zeroMonth":
      [n, rest] = getNum(value, chunk.element === "zeroMonth");
      f.month = rangeCheck(n, 1, 12, "month");
      return rest;
    case "weekday":
    case "longWeekday":
      return lookupName(
        chunk.element === "weekday" ? LONG_WEEKDAYS.map((d) => d.slice(0, 3)) : LONG_WEEKDAYS,
        value,
      )[1];
    case "day":
    case "underDay":
    case "zeroDay":
      [f.day, rest] = getNum(
        chunk.element === "underDay" && value[0] === " " ? value.slice(1) : value,
        chunk.element === "zeroDay",
      );
      return rest;
    case "underYearDay":
    case "zeroYearDay": {
      let v = value;
      if (chunk.element === "underYearDay")
        for (let i = 0; i < 2 && v[0] === " "; i++) v = v.slice(1);
      [n, rest] = getNum3(v, chunk.element === "zeroYearDay");
      f.yearDay = rangeCheck(n, 1, 366, "day-of-year");
      return rest;
    }
  }
  return undefined;
}

/** Parses one clock or zone element from the front of `value`; returns the rest of it. */
function parseClockElement(
  chunk: ElementChunk,
  value: string,
  f: Fields,
  next: LayoutChunk | undefined,
): string {
  let n: number;
  let rest: string;
  switch (chunk.element) {
    case "hour":
      [n, rest] = getNum(value, false);
      f.hour = rangeCheck(n, 0, 23, "hour");
      return rest;
    case "hour12":
    case "zeroHour12":
      [n, rest] = getNum(value, chunk.element === "zeroHour12");
      f.hour = rangeCheck(n, 0, 12, "hour");
      return rest;
    case "minute":
    case "zeroMinute":
      [n, rest] = getNum(value, chunk.element === "zeroMinute");
      f.minute = rangeCheck(n, 0, 59, "minute");
      return rest;
    case "second":
    case "zeroSecond":
      [n, rest] = getNum(value, chunk.element === "zeroSecond");
      f.second = rangeCheck(n, 0, 59, "second");
      return implicitFraction(rest, f, next);
    case "PM":
    case "pm": {
      const text = value.slice(0, 2);
      const [am, pm] = chunk.element === "PM" ? ["AM", "PM"] : ["am", "pm"];
      if (text !== am && text !== pm) throw new ElementError();
      f.pm = text === pm;
      return value.slice(2);
    }
    case "tz":
      return parseZoneName(value, f);
    case "fracSecond0": {
      const length = 1 + chunk.digits;
      if (value.length < length) throw new ElementError();
      f.nanosecond = parseNanos(value, length);
      return value.slice(length);
    }
    case "fracSecond9": {
      if (value.length < 2 || (value[0] !== "." && value[0] !== ",") || !isDigit(value, 1))
        return value;
      let i = 1;
      while (isDigit(value, i)) i++;
      f.nanosecond = parseNanos(value, i);
      return value.slice(i);
    }
    default:
      return parseOffset(chunk.element, value, f);
  }
}

/** Parses one element from the front of `value` into `f`; returns the rest of `value`. */
function parseElement(
  chunk: ElementChunk,
  value: string,
  f: Fields,
  next: LayoutChunk | undefined,
): string {
  return parseDateElement(chunk, value, f) ?? parseClockElement(chunk, value, f, next);
}

/** A fractional second in the value that the layout does not mention is still accepted. */
function implicitFraction(value: string, f: Fields, next: LayoutChunk | undefined): string {
  if (value.length < 2 || (value[0] !== "." && value[0] !== ",") || !isDigit(value, 1))
    return value;
  if (next?.kind === "element" && next.element.startsWith("fracSecond")) return value;
  let i = 2;
  while (isDigit(value, i)) i++;
  f.nanosecond = parseNanos(value, i);
  return value.slice(i);
}

/** Applies a day-of-year element, checking it agrees with any month and day given. */
function applyYearDay(f: Fields, fail: (message: string) => never): void {
  if (f.yearDay < 0) return;
  if (f.yearDay > (isLeapYear(f.year) ? 366 : 365)) fail(": day-of-year out of range");
  const days = daysFromCivil(f.year, 1, f.yearDay);
  const jan1 = daysFromCivil(f.year, 1, 1);
  let month = 1;
  while (month < 12 && daysFromCivil(f.year, month + 1, 1) <= days) month++;
  const day = days - daysFromCivil(f.year, month, 1) + 1;
  if ((f.month >= 0 && f.month !== month) || (f.day >= 0 && f.day !== day))
    fail(": day-of-year does not match month");
  if (days < jan1) fail(": day-of-year out of range");
  f.month = month;
  f.day = day;
}

/**
 * Parses `value` with a Go layout; returns nanoseconds since the epoch (possibly outside
 * the int64 range: the caller checks). Throws TimeParseError with Go's message.
 */
export function parseGoTime(layout: string, value: string): bigint {
  const f: Fields = {
    year: 0,
    month: -1,
    day: -1,
    yearDay: -1,
    hour: 0,
    minute: 0,
    second: 0,
    nanosecond: 0,
    pm: undefined,
    offsetSeconds: undefined,
    zoneName: "",
  };
  const prefix = `parsing time ${quote(value)}`;
  const fail = (message: string): never => {
    throw new TimeParseError(prefix + message);
  };
  const chunks = compileLayout(layout);
  let rest = value;
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i] as LayoutChunk;
    if (chunk.kind === "literal") {
      const after = skipLiteral(rest, chunk.text);
      if (after === undefined)
        fail(` as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(chunk.text)}`);
      rest = after as string;
      continue;
    }
    try {
      rest = parseElement(chunk, rest, f, chunks[i + 1]);
    } catch (e) {
      if (!(e instanceof ElementError)) throw e;
      if (e.range) fail(`: ${e.range} out of range`);
      fail(` as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(chunk.text)}`);
    }
  }
  if (rest.length > 0) fail(`: extra text: ${quote(rest)}`);
  if (f.pm === true && f.hour < 12) f.hour += 12;
  else if (f.pm === false && f.hour === 12) f.hour = 0;
  applyYearDay(f, fail);
  if (f.month < 0) f.month = 1;
  if (f.day < 0) f.day = 1;
  if (f.day < 1 || f.day > daysInMonth(f.year, f.month)) fail(": day out of range");
  return instantFromCivil(f, f.offsetSeconds ?? 0);
}
