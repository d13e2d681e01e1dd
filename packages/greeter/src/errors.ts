/** Errors of the greeter package that are not gRPC statuses: configuration problems. */

/** Every invalid configuration variable, reported together. */
export class ConfigError extends Error {
  readonly code = "invalid_config";
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}
