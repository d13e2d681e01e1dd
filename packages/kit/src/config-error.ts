/** Every invalid configuration variable of one package, reported together. */
export class ConfigError extends Error {
  readonly code = "invalid_config";
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}
