/** Validation of the one input of the service: the name to greet. */

/** Longest name accepted, in characters (code points). */
export const MAX_NAME_LENGTH = 256;

/** Why a name is unacceptable, or undefined when it is fine. */
export function nameProblem(name: string | undefined | null): string | undefined {
  if (name === undefined || name === null || name === "") return "name is required";
  if (name.trim() === "") return "name must not be blank";
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) {
    return `name is too long: ${length} characters, at most ${MAX_NAME_LENGTH} allowed`;
  }
  return undefined;
}
