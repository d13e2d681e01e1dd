/**
 * Skips for want of something the environment provides (the shared files in ../shared, a
 * PostgreSQL server, Chromium, root), which CI must not be able to hide: with
 * QUINTET_REQUIRE_ALL=1 (.ci/run sets it) such a skip also registers a failing test that names
 * what is missing, so the run fails instead of passing quietly. Test code only: it registers
 * tests with node:test, so it lives behind the `@quintet/kit/testing` entry point.
 */
import { it } from "node:test";

/** The variable that turns these skips into failures. */
export const requireAllVariable = "QUINTET_REQUIRE_ALL";

/** Whether the variable asks for every provided thing to be there ("1"; unset or "0" does not). */
export function requireAll(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[requireAllVariable];
  if (value === undefined || value === "" || value === "0") return false;
  if (value === "1") return true;
  throw new Error(`${requireAllVariable} must be 1 or 0, not ${JSON.stringify(value)}`);
}

/**
 * The `skip` option of a test or suite that needs something provided: undefined when it is
 * there (`missing` is undefined), else the reason. Call it where the test is defined: under
 * QUINTET_REQUIRE_ALL=1 a missing thing also adds, there, a test that fails with the reason.
 * @param missing why the test cannot run here, or undefined when it can.
 */
export function skipUnlessProvided(missing: string | undefined): string | undefined {
  if (missing === undefined) return undefined;
  if (requireAll()) {
    it(`required by ${requireAllVariable}=1: ${missing}`, () => {
      throw new Error(
        `${missing} (${requireAllVariable}=1: this run must not skip for want of it)`,
      );
    });
  }
  return missing;
}
