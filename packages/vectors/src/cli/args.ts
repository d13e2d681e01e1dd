/** Argument parsing shared by the commands: node:util parseArgs failures become usage errors. */
import { messageOf, UsageError } from "../errors.js";

/** Runs a parseArgs call; an unknown or malformed option becomes a {@link UsageError}. */
export function usageErrors<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
}

/** Reads an optional whole-number option. */
export function intOption(
  name: string,
  text: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
