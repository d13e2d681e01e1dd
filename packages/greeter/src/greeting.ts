/**
 * The greeting rule of the spec (component A, rules 2 and 3): the phrase follows the
 * server's local hour, the layout is variant 1 (`Hello, <name>, <phrase> !!!`).
 */

export type GoodPhrase = "Good Morning" | "Good Afternoon" | "Good Evening" | "Good Night";

/** The phrase for a local hour 0-23: <12 morning, <16 afternoon, <21 evening, else night. */
export function phraseForHour(hour: number): GoodPhrase {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) {
    throw new RangeError(`hour must be an integer 0-23, got ${hour}`);
  }
  if (hour < 12) return "Good Morning";
  if (hour < 16) return "Good Afternoon";
  if (hour < 21) return "Good Evening";
  return "Good Night";
}

/**
 * The greeting for `name` at instant `now`. `getHours()` reads the process's local time, so
 * the time zone follows `TZ` as it does for any Node program.
 */
export function greetingFor(name: string, now: Date): string {
  return `Hello, ${name}, ${phraseForHour(now.getHours())} !!!`;
}

export interface ParsedGreeting {
  name: string;
  phrase: GoodPhrase;
}

const greetingPattern =
  /^Hello,? (?<name>.*), (?<phrase>Good Morning|Good Afternoon|Good Evening|Good Night) !!!$/s;

/**
 * Reads a greeting in either layout of rule 3 (with or without the comma after Hello), so a
 * client never depends on that punctuation. Returns undefined for anything else.
 */
export function parseGreeting(message: string): ParsedGreeting | undefined {
  const match = greetingPattern.exec(message);
  if (!match?.groups) return undefined;
  return { name: match.groups.name as string, phrase: match.groups.phrase as GoodPhrase };
}
