// The server's side of a runner process: spawn, requests over IPC, crash handling.
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { LlmsrvError } from "../errors.js";
import type { BackendReport, GpuMode } from "./gpu-backend.js";
import { isBacktraceFrame, type LogLevelName, parseRunnerLine } from "./llama-log.js";
import type { LoadSpec } from "./model-runner.js";
import {
  fromWireError,
  LOAD_CALL_ID,
  type RunnerCall,
  type RunnerReply,
  type RunnerRequest,
} from "./runner-protocol.js";

const RUNNER_JS = fileURLToPath(new URL("./runner-process.js", import.meta.url));
/** How long an unloading runner may take to release its model before it is killed. */
const UNLOAD_GRACE_MS = 1000;
/** Default of `RunnerOptions.abortGraceMs`. */
export const ABORT_GRACE_MS = 5000;
/** Characters of the runner's stderr kept to explain a crash. */
const STDERR_TAIL = 16_384;

/** Runners alive in this process: killed if the server exits without unloading them. */
const live = new Set<ChildProcess>();

function track(child: ChildProcess): void {
  if (live.size === 0) process.once("exit", killLive);
  live.add(child);
}

function untrack(child: ChildProcess): void {
  live.delete(child);
  if (live.size === 0) process.off("exit", killLive);
}

function killLive(): void {
  for (const child of live) child.kill("SIGKILL");
}

/** How a runner is started. */
export interface RunnerOptions {
  /** Upper bound on threads any context may use. */
  maxThreads: number;
  /**
   * How long a canceled call may go on before the runner is asked whether it still answers,
   * and how long it has to answer; one that does not is blocked in work nobody waits for
   * (tokenizing a huge prompt) and is killed.
   */
  abortGraceMs?: number;
  /** Receives the runner's stderr lines (llama.cpp's log) with their level; default: stderr. */
  log?: (level: LogLevelName, message: string) => void;
  /** LLMSRV_GPU: the variant of node-llama-cpp the runner loads (default: the CPU one). */
  gpu?: GpuMode;
}

/** What a runner's load answers: the bytes the model holds, and the part on the GPU. */
export interface LoadedSizes {
  sizeBytes: number;
  vramBytes: number;
}

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onText?: (text: string) => void;
}

/**
 * The server's handle on one runner process: sends calls, routes replies and streamed text
 * to their callers, and turns the process's death into an error for every call in flight.
 */
export class RunnerProcess {
  private readonly child: ChildProcess;
  private readonly calls = new Map<number, PendingCall>();
  private nextId = LOAD_CALL_ID + 1;
  private stderrTail = "";
  private ended: LlmsrvError | undefined;
  private stopping = false;
  private loading: PendingCall | undefined;
  private killedBecause: string | undefined;
  private resolveLost!: (e: Error) => void;
  private resolveExited!: () => void;
  /** Settles when the process died without being asked to stop. */
  readonly lost = new Promise<Error>((r) => {
    this.resolveLost = r;
  });
  /** Settles when the process has exited, for whatever reason. */
  readonly exited = new Promise<void>((r) => {
    this.resolveExited = r;
  });
  private resolveBackend!: (report: BackendReport) => void;
  /**
   * The backend the runner's native library runs on, once it is open (a runner opens it as
   * soon as it starts); an error report when it could not be opened or the process died.
   */
  readonly backend = new Promise<BackendReport>((r) => {
    this.resolveBackend = r;
  });

  constructor(private readonly options: RunnerOptions) {
    // No inherited flags (--test, inspectors): the runner is a plain Node process.
    this.child = fork(RUNNER_JS, [String(options.maxThreads), options.gpu ?? "off"], {
      serialization: "advanced",
      stdio: ["ignore", "inherit", "pipe", "ipc"],
      execArgv: [],
    });
    track(this.child);
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL);
      this.forwardLog(chunk.toString());
    });
    this.child.on("message", (msg: RunnerReply) => this.onReply(msg));
    this.child.on("exit", (code, signal) => this.onExit(code, signal));
    this.child.on("error", (e) => {
      if (this.child.pid === undefined) this.onExit(null, null, e.message);
    });
  }

  /** Partial last line of the runner's stderr, awaiting its end. */
  private stderrLine = "";

  /** Sends each complete stderr line to the server's log (or stderr when there is none). */
  private forwardLog(text: string): void {
    const log = this.options.log;
    if (!log) {
      process.stderr.write(text);
      return;
    }
    const lines = (this.stderrLine + text).split("\n");
    this.stderrLine = (lines.pop() ?? "").slice(-STDERR_TAIL);
    for (const line of lines) {
      if (line.trim() === "") continue;
      const { level, message } = parseRunnerLine(line);
      log(level, message);
    }
  }

  /** True once the process has exited. */
  get hasEnded(): boolean {
    return this.ended !== undefined;
  }

  get pid(): number | undefined {
    return this.ended ? undefined : this.child.pid;
  }

  /** Loads the model in the runner; resolves with the bytes it holds. */
  load(spec: LoadSpec, availableMemory: number): Promise<LoadedSizes> {
    return new Promise<LoadedSizes>((resolve, reject) => {
      if (this.ended) return reject(new LlmsrvError("model_load_failed", this.ended.message));
      this.loading = { resolve: (v) => resolve(v as LoadedSizes), reject };
      this.send({ type: "load", spec, availableMemory });
    });
  }

  /** Sends a call; `onText` receives the text a completion streams. */
  call<T>(
    make: (id: number) => RunnerCall,
    onText?: (text: string) => void,
  ): { id: number; result: Promise<T> } {
    const id = this.nextId++;
    const result = new Promise<T>((resolve, reject) => {
      if (this.ended) return reject(this.ended);
      this.calls.set(id, { resolve: (v) => resolve(v as T), reject, onText });
      this.send(make(id));
    });
    return { id, result };
  }

  /** Asks the runner to stop the call (a completion then answers with what it has). */
  abort(id: number): void {
    if (!this.calls.has(id)) return;
    this.send({ type: "abort", id });
    const grace = this.options.abortGraceMs ?? ABORT_GRACE_MS;
    const timer = setTimeout(() => {
      if (this.calls.has(id)) void this.killUnlessAnswering(grace);
    }, grace);
    timer.unref();
  }

  /** Pings the runner; kills it when the answer does not come within `waitMs`. */
  private async killUnlessAnswering(waitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      this.call((id) => ({ type: "ping", id })).result.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(false), waitMs);
      }),
    ]);
    clearTimeout(timer);
    if (answered || this.ended) return;
    this.killedBecause = "killed: it did not answer after its request was canceled";
    this.child.kill("SIGKILL");
  }

  /** Unloads: the runner releases the model and exits, or is killed after a grace period. */
  async stop(): Promise<void> {
    if (this.ended) return;
    this.stopping = true;
    this.send({ type: "unload" });
    const timer = setTimeout(() => this.child.kill("SIGKILL"), UNLOAD_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  /** Ends the runner at once (shutdown, failed load). */
  async kill(): Promise<void> {
    if (this.ended) return;
    this.stopping = true;
    this.child.kill("SIGKILL");
    await this.exited;
  }

  private send(msg: RunnerRequest): void {
    if (this.ended || !this.child.connected) return;
    // A send racing the runner's death fails here; the exit handler answers the caller.
    this.child.send(msg, (e) => e && undefined);
  }

  private onReply(msg: RunnerReply): void {
    if (msg.type === "backend") {
      this.resolveBackend(msg.report);
      return;
    }
    if (msg.type === "loaded") {
      this.loading?.resolve({ sizeBytes: msg.sizeBytes, vramBytes: msg.vramBytes });
      this.loading = undefined;
      return;
    }
    if (msg.type === "failed" && msg.id === LOAD_CALL_ID) {
      this.loading?.reject(fromWireError(msg.error));
      this.loading = undefined;
      return;
    }
    const pending = this.calls.get(msg.id);
    if (!pending) return;
    if (msg.type === "text") {
      pending.onText?.(msg.text);
      return;
    }
    this.calls.delete(msg.id);
    if (msg.type === "done") pending.resolve(msg.value);
    else pending.reject(fromWireError(msg.error));
  }

  /** The last line the runner wrote to stderr (llama.cpp's reason for an abort), frames aside. */
  private lastErrorLine(): string | undefined {
    const lines = this.stderrTail
      .split("\n")
      .filter((l) => l.trim() !== "" && !isBacktraceFrame(parseRunnerLine(l.trim()).message));
    const last = lines.at(-1);
    return last === undefined ? undefined : parseRunnerLine(last.trim()).message;
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null, why?: string): void {
    if (this.ended) return;
    untrack(this.child);
    if (this.stderrLine !== "") this.forwardLog("\n");
    const status =
      why ?? this.killedBecause ?? (signal ? `signal ${signal}` : `exit status ${code}`);
    const last = this.lastErrorLine();
    const message = `llama runner process has terminated: ${status}${last ? `: ${last}` : ""}`;
    this.ended = new LlmsrvError("internal", message);
    for (const pending of this.calls.values()) pending.reject(this.ended);
    this.calls.clear();
    this.loading?.reject(new LlmsrvError("model_load_failed", message));
    this.loading = undefined;
    this.resolveBackend({ error: message });
    if (!this.stopping) this.resolveLost(this.ended);
    this.resolveExited();
  }
}
