/**
 * Go's reference-time layouts ("Mon Jan 2 15:04:05 MST 2006"): a layout string is cut into
 * literal text and elements, following the same recognition rules as Go's time package, so
 * that `time.parse_ns` and `time.format` read layouts exactly as OPA does.
 */

/** A layout element. Names follow what the element stands for. */
export type LayoutElement =
  | "longMonth" // January
  | "month" // Jan
  | "numMonth" // 1
  | "zeroMonth" // 01
  | "longWeekday" // Monday
  | "weekday" // Mon
  | "day" // 2
  | "underDay" // _2
  | "zeroDay" // 02
  | "underYearDay" // __2
  | "zeroYearDay" // 002
  | "hour" // 15
  | "hour12" // 3
  | "zeroHour12" // 03
  | "minute" // 4
  | "zeroMinute" // 04
  | "second" // 5
  | "zeroSecond" // 05
  | "longYear" // 2006
  | "year" // 06
  | "PM" // PM
  | "pm" // pm
  | "tz" // MST
  | "iso8601TZ" // Z0700
  | "iso8601SecondsTZ" // Z070000
  | "iso8601ShortTZ" // Z07
  | "iso8601ColonTZ" // Z07:00
  | "iso8601ColonSecondsTZ" // Z07:00:00
  | "numTZ" // -0700
  | "numSecondsTZ" // -070000
  | "numShortTZ" // -07
  | "numColonTZ" // -07:00
  | "numColonSecondsTZ" // -07:00:00
  | "fracSecond0" // .000 (fixed digits)
  | "fracSecond9"; // .999 (trailing zeros dropped)

export type LayoutChunk =
  | { kind: "literal"; text: string }
  | { kind: "element"; element: LayoutElement; text: string; digits: number; separator: string };

/** Go's named layout constants, accepted in place of a layout by OPA. */
export const NAMED_LAYOUTS: Readonly<Record<string, string>> = {
  ANSIC: "Mon Jan _2 15:04:05 2006",
  UnixDate: "Mon Jan _2 15:04:05 MST 2006",
  RubyDate: "Mon Jan 02 15:04:05 -0700 2006",
  RFC822: "02 Jan 06 15:04 MST",
  RFC822Z: "02 Jan 06 15:04 -0700",
  RFC850: "Monday, 02-Jan-06 15:04:05 MST",
  RFC1123: "Mon, 02 Jan 2006 15:04:05 MST",
  RFC1123Z: "Mon, 02 Jan 2006 15:04:05 -0700",
  RFC3339: "2006-01-02T15:04:05Z07:00",
  RFC3339Nano: "2006-01-02T15:04:05.999999999Z07:00",
  Kitchen: "3:04PM",
  Stamp: "Jan _2 15:04:05",
  StampMilli: "Jan _2 15:04:05.000",
  StampMicro: "Jan _2 15:04:05.000000",
  StampNano: "Jan _2 15:04:05.000000000",
  DateTime: "2006-01-02 15:04:05",
  DateOnly: "2006-01-02",
  TimeOnly: "15:04:05",
};

/** A layout given by name (e.g. "RFC1123Z") or as itself. */
export function resolveLayout(layout: string): string {
  return NAMED_LAYOUTS[layout] ?? layout;
}

const TZ_PREFIXES: [string, LayoutElement][] = [
  ["Z070000", "iso8601SecondsTZ"],
  ["Z07:00:00", "iso8601ColonSecondsTZ"],
  ["Z0700", "iso8601TZ"],
  ["Z07:00", "iso8601ColonTZ"],
  ["Z07", "iso8601ShortTZ"],
  ["-070000", "numSecondsTZ"],
  ["-07:00:00", "numColonSecondsTZ"],
  ["-0700", "numTZ"],
  ["-07:00", "numColonTZ"],
  ["-07", "numShortTZ"],
];

const ZERO_ELEMENTS: Record<string, LayoutElement> = {
  "1": "zeroMonth",
  "2": "zeroDay",
  "3": "zeroHour12",
  "4": "zeroMinute",
  "5": "zeroSecond",
  "6": "year",
};

function startsWithLower(s: string): boolean {
  const c = s.charCodeAt(0);
  return c >= 97 && c <= 122;
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** The element starting at `i` of `layout` and its length, if one starts there. */
function elementAt(
  layout: string,
  i: number,
): { element: LayoutElement; length: number; digits?: number } | undefined {
  const rest = layout.slice(i);
  switch (layout[i]) {
    case "J":
      if (rest.startsWith("January")) return { element: "longMonth", length: 7 };
      if (rest.startsWith("Jan") && !startsWithLower(rest.slice(3)))
        return { element: "month", length: 3 };
      return undefined;
    case "M":
      if (rest.startsWith("Monday")) return { element: "longWeekday", length: 6 };
      if (rest.startsWith("Mon") && !startsWithLower(rest.slice(3)))
        return { element: "weekday", length: 3 };
      if (rest.startsWith("MST")) return { element: "tz", length: 3 };
      return undefined;
    case "0": {
      const next = layout[i + 1] ?? "";
      if (next >= "1" && next <= "6")
        return { element: ZERO_ELEMENTS[next] as LayoutElement, length: 2 };
      if (rest.startsWith("002")) return { element: "zeroYearDay", length: 3 };
      return undefined;
    }
    case "1":
      if (layout[i + 1] === "5") return { element: "hour", length: 2 };
      return { element: "numMonth", length: 1 };
    case "2":
      if (rest.startsWith("2006")) return { element: "longYear", length: 4 };
      return { element: "day", length: 1 };
    case "_":
      if (rest.startsWith("_2") && !rest.startsWith("_2006"))
        return { element: "underDay", length: 2 };
      if (rest.startsWith("__2")) return { element: "underYearDay", length: 3 };
      return undefined;
    case "3":
      return { element: "hour12", length: 1 };
    case "4":
      return { element: "minute", length: 1 };
    case "5":
      return { element: "second", length: 1 };
    case "P":
      return rest.startsWith("PM") ? { element: "PM", length: 2 } : undefined;
    case "p":
      return rest.startsWith("pm") ? { element: "pm", length: 2 } : undefined;
    case "-":
    case "Z":
      for (const [prefix, element] of TZ_PREFIXES) {
        if (rest.startsWith(prefix)) return { element, length: prefix.length };
      }
      return undefined;
    case ".":
    case ",":
      return fractionAt(layout, i);
  }
  return undefined;
}

/** `.000` or `.999` (or with a comma) not followed by another digit. */
function fractionAt(
  layout: string,
  i: number,
): { element: LayoutElement; length: number; digits: number } | undefined {
  const ch = layout[i + 1];
  if (ch !== "0" && ch !== "9") return undefined;
  let j = i + 1;
  while (j < layout.length && layout[j] === ch) j++;
  if (isDigitAt(layout, j)) return undefined;
  return { element: ch === "0" ? "fracSecond0" : "fracSecond9", length: j - i, digits: j - i - 1 };
}

const compiled = new Map<string, LayoutChunk[]>();

/** Cuts a layout into literal text and elements (memoised: layouts repeat). */
export function compileLayout(layout: string): LayoutChunk[] {
  const hit = compiled.get(layout);
  if (hit) return hit;
  const chunks: LayoutChunk[] = [];
  let literal = "";
  let i = 0;
  while (i < layout.length) {
    const found = elementAt(layout, i);
    if (!found) {
      literal += layout[i];
      i++;
      continue;
    }
    if (literal) chunks.push({ kind: "literal", text: literal });
    literal = "";
    chunks.push({
      kind: "element",
      element: found.element,
      text: layout.slice(i, i + found.length),
      digits: found.digits ?? 0,
      separator: layout[i] === "," ? "," : ".",
    });
    i += found.length;
  }
  if (literal) chunks.push({ kind: "literal", text: literal });
  if (compiled.size > 256) compiled.clear();
  compiled.set(layout, chunks);
  return chunks;
}

export const LONG_MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
export const LONG_WEEKDAYS = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
];
