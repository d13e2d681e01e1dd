/** Errors of the launcher. */

/** A component that did not come up: its name and why. */
export class StartError extends Error {
  readonly code = "start_failed";
  constructor(
    readonly component: string,
    reason: string,
  ) {
    super(`${component} failed to start: ${reason}`);
    this.name = "StartError";
  }
}
