/**
 * Time zones for the time builtins: UTC, fixed offsets (from parsed text such as `-07:00`)
 * and IANA zones looked up through Intl (Node ships full ICU data, so no tz files are read).
 */
import type { Zone } from "./civil.js";

/** Coordinated Universal Time. */
export const UTC: Zone = {
  name: "UTC",
  offsetAt: () => 0,
  abbreviationAt: () => "UTC",
};

/** A zone with one constant offset (seconds east of UTC) and an optional abbreviation. */
export function fixedZone(offsetSeconds: number, abbreviation = ""): Zone {
  return {
    name: abbreviation,
    offsetAt: () => offsetSeconds,
    abbreviationAt: () => abbreviation,
  };
}

/** Thrown when a zone name is not in the IANA database; the message is Go's. */
export class UnknownZoneError extends Error {
  constructor(name: string) {
    super(`unknown time zone ${name}`);
    this.name = "UnknownZoneError";
  }
}

const zoneCache = new Map<string, Zone>();

/**
 * The zone called `name`: "" and "UTC" are UTC, "Local" is the process's zone, anything else
 * must be an IANA name. Zones are cached: Intl formatters are costly to build.
 */
export function loadZone(name: string): Zone {
  if (name === "" || name === "UTC") return UTC;
  const cached = zoneCache.get(name);
  if (cached) return cached;
  const zone = intlZone(name === "Local" ? undefined : name);
  zoneCache.set(name, zone);
  return zone;
}

function intlZone(name: string | undefined): Zone {
  let numeric: Intl.DateTimeFormat;
  let short: Intl.DateTimeFormat;
  try {
    numeric = new Intl.DateTimeFormat("en-US", {
      timeZone: name,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      era: "short",
    });
    short = new Intl.DateTimeFormat("en-US", { timeZone: name, timeZoneName: "short" });
  } catch {
    throw new UnknownZoneError(name ?? "Local");
  }
  const offsetAt = (epochSeconds: number): number => {
    const parts: Record<string, string> = {};
    for (const p of numeric.formatToParts(epochSeconds * 1000)) parts[p.type] = p.value;
    let year = Number(parts.year);
    if (parts.era === "BC" || parts.era === "B") year = 1 - year;
    const wall = Date.UTC(
      year,
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    );
    // Date.UTC maps years 0-99 to 1900-1999; correct for them.
    const fixed = year >= 0 && year < 100 ? new Date(wall).setUTCFullYear(year) : wall;
    return Math.round((fixed - epochSeconds * 1000) / 1000);
  };
  const abbreviationAt = (epochSeconds: number): string => {
    const part = short.formatToParts(epochSeconds * 1000).find((p) => p.type === "timeZoneName");
    const text = part?.value ?? "";
    return /^[A-Z]{3,5}$/.test(text) ? text : "";
  };
  return { name: name ?? "Local", offsetAt, abbreviationAt };
}
