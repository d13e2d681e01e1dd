/** Errors of the launcher. */

/** Every invalid configuration variable, reported together. */
export class ConfigError extends Error {
  readonly code = "invalid_config";
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

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
