/** Formats a broken-down time with a Go reference-time layout, as Go's Time.Format does. */
import type { CivilTime } from "./civil.js";
import {
  compileLayout,
  type LayoutChunk,
  type LayoutElement,
  LONG_MONTHS,
  LONG_WEEKDAYS,
} from "./go-layout.js";

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, "0");
  return n < 0 ? `-${s}` : s;
}

/** `+hh[:]mm[[:]ss]` for numeric zone elements; "Z" for UTC in the ISO 8601 forms. */
function formatOffset(element: LayoutElement, offsetSeconds: number): string {
  if (element.startsWith("iso8601") && offsetSeconds === 0) return "Z";
  const sign = offsetSeconds < 0 ? "-" : "+";
  const abs = Math.abs(offsetSeconds);
  const hh = pad(Math.floor(abs / 3600), 2);
  const mm = pad(Math.floor((abs % 3600) / 60), 2);
  const ss = pad(abs % 60, 2);
  switch (element) {
    case "iso8601ShortTZ":
    case "numShortTZ":
      return `${sign}${hh}`;
    case "iso8601ColonTZ":
    case "numColonTZ":
      return `${sign}${hh}:${mm}`;
    case "iso8601SecondsTZ":
    case "numSecondsTZ":
      return `${sign}${hh}${mm}${ss}`;
    case "iso8601ColonSecondsTZ":
    case "numColonSecondsTZ":
      return `${sign}${hh}:${mm}:${ss}`;
    default:
      return `${sign}${hh}${mm}`;
  }
}

/** `.123` with exactly `digits` digits, or trimmed of trailing zeros (and of itself if zero). */
function formatFraction(chunk: Extract<LayoutChunk, { kind: "element" }>, nanos: number): string {
  const all = pad(nanos, 9);
  if (chunk.element === "fracSecond0")
    return chunk.separator + all.slice(0, Math.min(chunk.digits, 9));
  const trimmed = all.slice(0, Math.min(chunk.digits, 9)).replace(/0+$/, "");
  return trimmed ? chunk.separator + trimmed : "";
}

function formatElement(chunk: Extract<LayoutChunk, { kind: "element" }>, t: CivilTime): string {
  const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  switch (chunk.element) {
    case "longYear":
      return pad(t.year, 4);
    case "year":
      return pad(((t.year % 100) + 100) % 100, 2);
    case "longMonth":
      return LONG_MONTHS[t.month - 1] as string;
    case "month":
      return (LONG_MONTHS[t.month - 1] as string).slice(0, 3);
    case "numMonth":
      return String(t.month);
    case "zeroMonth":
      return pad(t.month, 2);
    case "longWeekday":
      return LONG_WEEKDAYS[t.weekday] as string;
    case "weekday":
      return (LONG_WEEKDAYS[t.weekday] as string).slice(0, 3);
    case "day":
      return String(t.day);
    case "underDay":
      return t.day < 10 ? ` ${t.day}` : String(t.day);
    case "zeroDay":
      return pad(t.day, 2);
    case "underYearDay":
      return String(t.yearDay).padStart(3, " ");
    case "zeroYearDay":
      return pad(t.yearDay, 3);
    case "hour":
      return pad(t.hour, 2);
    case "hour12":
      return String(hour12);
    case "zeroHour12":
      return pad(hour12, 2);
    case "minute":
      return String(t.minute);
    case "zeroMinute":
      return pad(t.minute, 2);
    case "second":
      return String(t.second);
    case "zeroSecond":
      return pad(t.second, 2);
    case "PM":
      return t.hour >= 12 ? "PM" : "AM";
    case "pm":
      return t.hour >= 12 ? "pm" : "am";
    case "tz":
      return t.zoneName || formatOffset("numTZ", t.offsetSeconds);
    case "fracSecond0":
    case "fracSecond9":
      return formatFraction(chunk, t.nanosecond);
    default:
      return formatOffset(chunk.element, t.offsetSeconds);
  }
}

/** Renders `t` with a Go layout (already resolved from a named constant). */
export function formatGoTime(t: CivilTime, layout: string): string {
  let out = "";
  for (const chunk of compileLayout(layout)) {
    out += chunk.kind === "literal" ? chunk.text : formatElement(chunk, t);
  }
  return out;
}
