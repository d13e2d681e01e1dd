/**
 * The state of each running plugin (`bundle`, `status`, `decision_logs`), as OPA reports it
 * in `/v1/status`, `/health?plugins` and the `/health/<path>` input. `plugins_ready` turns
 * true the first time every plugin is OK and stays true (OPA's readiness latch).
 */

/** OPA's plugin states. */
export type PluginState = "NOT_READY" | "OK" | "ERROR" | "WARN";

/** Registered plugins and their current states; listeners hear every change. */
export class PluginManager {
  private readonly states = new Map<string, PluginState>();
  private readonly listeners: ((name: string, state: PluginState) => void)[] = [];
  private ready = false;

  /** Adds a plugin (NOT_READY until it says otherwise). */
  register(name: string, state: PluginState = "NOT_READY"): void {
    this.states.set(name, state);
    this.checkReady();
  }

  /** Sets a plugin's state; listeners hear only real changes. */
  setState(name: string, state: PluginState): void {
    if (this.states.get(name) === state) return;
    this.states.set(name, state);
    this.checkReady();
    for (const listen of this.listeners) listen(name, state);
  }

  /** A plugin's state; undefined when it is not configured. */
  state(name: string): PluginState | undefined {
    return this.states.get(name);
  }

  /** Every plugin and its state, by name. */
  allStates(): Record<string, PluginState> {
    return Object.fromEntries(this.states);
  }

  /** True once every plugin has been OK at the same time. */
  get pluginsReady(): boolean {
    return this.ready;
  }

  onChange(listen: (name: string, state: PluginState) => void): void {
    this.listeners.push(listen);
  }

  private checkReady(): void {
    if (!this.ready && [...this.states.values()].every((s) => s === "OK")) this.ready = true;
  }
}
