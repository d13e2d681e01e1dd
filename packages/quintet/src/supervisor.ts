/**
 * Runs components as child processes: writes their log lines and its own in the one log format
 * (@quintet/kit: text for a person, or JSON lines), waits for each service's health check, runs jobs once their dependencies are up,
 * forwards SIGINT/SIGTERM, and stops everything when one fails. Each child is linked to the
 * launcher (parent-link.ts) so that it also stops when the launcher dies without a word.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import {
  type LogFormat,
  type LogLevel,
  type LogRecord,
  recordOf,
  renderText,
  toRecord,
} from "@quintet/kit";
import type { Component } from "./components.js";
import { StartError } from "./errors.js";
import { linkedSpawn } from "./parent-link.js";
import { portProblem } from "./port-check.js";

export interface SupervisorIO {
  /** One line of output (a rendered log record). */
  line(text: string): void;
}

export interface SupervisorOptions {
  root: string;
  startTimeoutMs: number;
  io: SupervisorIO;
  env?: NodeJS.ProcessEnv;
  /** Time an orphaned child gets for its graceful shutdown (default 10 s). */
  orphanGraceMs?: number;
  /** How log records are written (default text). Children always write JSON to the launcher. */
  logFormat?: LogFormat;
}

interface Running {
  component: Component;
  child: ChildProcess;
  exited: Promise<number | null>;
}

export class Supervisor {
  private readonly running: Running[] = [];
  private readonly healthy = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly components: Component[],
    private readonly options: SupervisorOptions,
  ) {}

  /**
   * Starts every component and resolves when everything has stopped: 0 after a requested
   * stop, 1 when a component failed to start or died.
   */
  async run(stopSignal: AbortSignal): Promise<number> {
    const failed = new AbortController();
    let failure: Error | undefined;
    const onFailure = (error: Error) => {
      if (failure || this.stopping) return;
      failure = error;
      this.say("error", error.message);
      failed.abort();
    };
    const stop = AbortSignal.any([stopSignal, failed.signal]);
    for (const problem of await this.preflight()) onFailure(problem);
    if (!failure) {
      for (const component of this.components) this.launch(component, stop, onFailure);
      Promise.all(this.healthy.values()).then(
        () => !stop.aborted && this.say("info", "all components up; Ctrl-C stops them"),
        () => undefined,
      );
    }
    await new Promise<void>((resolve) => {
      if (stop.aborted) resolve();
      stop.addEventListener("abort", () => resolve(), { once: true });
    });
    // Forward the signal the launcher got (the CLI passes it as the abort reason).
    const reason = stopSignal.aborted ? stopSignal.reason : undefined;
    await this.stopAll(reason === "SIGINT" ? "SIGINT" : "SIGTERM");
    return failure ? 1 : 0;
  }

  /** Ports already taken, reported before anything starts. */
  private async preflight(): Promise<StartError[]> {
    const problems: StartError[] = [];
    for (const component of this.components) {
      if (!component.listen) continue;
      const problem = await portProblem(component.listen);
      if (problem) problems.push(new StartError(component.name, problem));
    }
    return problems;
  }

  private launch(component: Component, stop: AbortSignal, onFailure: (e: Error) => void): void {
    const started = (async () => {
      await Promise.all(component.after.map((name) => this.healthy.get(name)));
      if (stop.aborted) throw new Error("stopped");
      const running = this.spawn(component);
      running.exited.then((code) => {
        if (this.stopping) return;
        if (component.kind === "job" && code === 0) {
          this.say("info", `${component.name} finished`);
          return;
        }
        onFailure(new StartError(component.name, `exited with code ${code} (its log is above)`));
      });
      if (component.kind === "service") await this.waitHealthy(running, stop);
      this.say("info", `${component.name} up`, { url: component.url, pid: running.child.pid });
    })();
    started.catch((error: Error) => {
      if (!stop.aborted) onFailure(error);
    });
    this.healthy.set(component.name, started);
  }

  private spawn(component: Component): Running {
    const link = linkedSpawn(this.options.orphanGraceMs ?? 10_000);
    const child = spawn(process.execPath, [...link.execArgv, component.script, ...component.args], {
      cwd: this.options.root,
      // JSON lines from every child, so the launcher can write them in its own format.
      env: {
        ...(this.options.env ?? process.env),
        ...component.env,
        ...link.env,
        LOG_FORMAT: "json",
      },
      stdio: link.stdio,
    });
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on("line", (line) =>
        this.write(toRecord(component.name, line)),
      );
    }
    const exited = new Promise<number | null>((resolve) => {
      child.once("exit", (code) => resolve(code));
      child.once("error", (error) => {
        this.write(recordOf(component.name, error.message, "error"));
        resolve(null);
      });
    });
    const running = { component, child, exited };
    this.running.push(running);
    return running;
  }

  /** Writes one record in the chosen format. */
  private write(record: LogRecord): void {
    const json = this.options.logFormat === "json";
    this.options.io.line(json ? JSON.stringify(record) : renderText(record));
  }

  /** A record of the launcher's own. */
  private say(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
    this.write(recordOf("quintet", msg, level, fields));
  }

  private async waitHealthy(running: Running, stop: AbortSignal): Promise<void> {
    const { component } = running;
    const deadline = Date.now() + this.options.startTimeoutMs;
    let exited = false;
    running.exited.then(() => {
      exited = true;
    });
    while (!stop.aborted && !exited) {
      const attempt = AbortSignal.any([stop, AbortSignal.timeout(2000)]);
      if (await component.probe?.(attempt)) return;
      if (Date.now() > deadline) {
        throw new StartError(
          component.name,
          `no healthy answer at ${component.url} within ${this.options.startTimeoutMs} ms`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (exited) throw new StartError(component.name, "exited before answering its health check");
  }

  /**
   * Forwards the signal to every child still running and waits for all of them; a child
   * still there after the grace period is killed.
   */
  private async stopAll(signal: NodeJS.Signals, graceMs = 15_000): Promise<void> {
    this.stopping = true;
    const alive = this.running.filter(
      ({ child }) => child.exitCode === null && child.signalCode === null,
    );
    for (const { child } of alive) child.kill(signal);
    const timer = setTimeout(() => {
      for (const { child, component } of alive) {
        if (child.exitCode === null && child.signalCode === null) {
          this.say("warn", `${component.name} ignored ${signal}; killing it`);
          child.kill("SIGKILL");
        }
      }
    }, graceMs);
    await Promise.all(this.running.map((r) => r.exited));
    clearTimeout(timer);
  }
}
