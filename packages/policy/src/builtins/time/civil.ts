/**
 * Calendar arithmetic on instants held as nanoseconds since the Unix epoch (bigint), as Go's
 * `time` package does it: proleptic Gregorian calendar, fields that overflow normalise into
 * the next unit (January 32 is February 1), and a time zone is an offset looked up per
 * instant. Time zone offsets come from Intl, which carries the full IANA database.
 */

const NS_PER_SECOND = 1_000_000_000n;
const SECONDS_PER_DAY = 86_400;

/** The range of an int64 nanosecond count, the range OPA accepts. */
export const MIN_NS = -(2n ** 63n);
export const MAX_NS = 2n ** 63n - 1n;

/** Fields of a wall-clock time to turn back into an instant; every field may overflow. */
export interface CivilFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
}

/** Broken-down wall-clock time in some zone. `month` is 1-12, `weekday` 0 (Sunday)-6. */
export interface CivilTime extends CivilFields {
  weekday: number;
  /** Day of the year, 1-366. */
  yearDay: number;
  /** Offset from UTC in seconds east. */
  offsetSeconds: number;
  /** Zone abbreviation such as "UTC" or "EST", or "" when the zone has none. */
  zoneName: string;
}

/** A time zone: a name for error messages and a way to find the offset of an instant. */
export interface Zone {
  readonly name: string;
  offsetAt(epochSeconds: number): number;
  abbreviationAt(epochSeconds: number): string;
}

function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/** Days since 1970-01-01 of a civil date; month and day may overflow and are normalised. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y0 = year + floorDiv(month - 1, 12);
  const m0 = ((((month - 1) % 12) + 12) % 12) + 1;
  const y = m0 <= 2 ? y0 - 1 : y0;
  const era = floorDiv(y, 400);
  const yoe = y - era * 400;
  const mp = (m0 + 9) % 12;
  const doy = floorDiv(153 * mp + 2, 5);
  const doe = yoe * 365 + floorDiv(yoe, 4) - floorDiv(yoe, 100) + doy;
  return era * 146_097 + doe - 719_468 + (day - 1);
}

/** The civil date of a day count since 1970-01-01. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = floorDiv(z, 146_097);
  const doe = z - era * 146_097;
  const yoe = floorDiv(
    doe - floorDiv(doe, 1460) + floorDiv(doe, 36_524) - floorDiv(doe, 146_096),
    365,
  );
  const doy = doe - (365 * yoe + floorDiv(yoe, 4) - floorDiv(yoe, 100));
  const mp = floorDiv(5 * doy + 2, 153);
  const day = doy - floorDiv(153 * mp + 2, 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Number of days in a month of a year (month 1-12). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Splits nanoseconds since the epoch into whole seconds (floored) and the nanosecond rest. */
export function splitNs(ns: bigint): { seconds: number; nanos: number } {
  let seconds = ns / NS_PER_SECOND;
  let nanos = ns % NS_PER_SECOND;
  if (nanos < 0n) {
    nanos += NS_PER_SECOND;
    seconds -= 1n;
  }
  return { seconds: Number(seconds), nanos: Number(nanos) };
}

/** The wall-clock fields of an instant in a zone. */
export function civilAt(ns: bigint, zone: Zone): CivilTime {
  const { seconds, nanos } = splitNs(ns);
  const offsetSeconds = zone.offsetAt(seconds);
  const local = seconds + offsetSeconds;
  const days = floorDiv(local, SECONDS_PER_DAY);
  const secOfDay = local - days * SECONDS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  return {
    year,
    month,
    day,
    hour: floorDiv(secOfDay, 3600),
    minute: floorDiv(secOfDay % 3600, 60),
    second: secOfDay % 60,
    nanosecond: nanos,
    weekday: (((days + 4) % 7) + 7) % 7,
    yearDay: days - daysFromCivil(year, 1, 1) + 1,
    offsetSeconds,
    zoneName: zone.abbreviationAt(seconds),
  };
}

/**
 * The instant of wall-clock fields at a fixed offset (seconds east of UTC), normalising
 * overflowing fields as Go's time.Date does.
 */
export function instantFromCivil(f: CivilFields, offsetSeconds: number): bigint {
  const days = daysFromCivil(f.year, f.month, f.day);
  const seconds =
    BigInt(days) * 86_400n +
    BigInt(f.hour * 3600 + f.minute * 60 + f.second) -
    BigInt(offsetSeconds);
  return seconds * NS_PER_SECOND + BigInt(f.nanosecond);
}

/**
 * The instant of wall-clock fields in a zone whose offset varies: the offset is found for
 * the UTC reading of the fields, then checked once more, as Go resolves local times.
 */
export function instantInZone(f: CivilFields, zone: Zone): bigint {
  const asUtc = instantFromCivil(f, 0);
  const guess = splitNs(asUtc).seconds;
  let offset = zone.offsetAt(guess);
  const second = zone.offsetAt(guess - offset);
  if (second !== offset) offset = second;
  return instantFromCivil(f, offset);
}

/** True when `ns` fits OPA's int64 nanosecond range. */
export function inNsRange(ns: bigint): boolean {
  return ns >= MIN_NS && ns <= MAX_NS;
}
