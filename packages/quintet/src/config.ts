/**
 * The only reader of the environment for the launcher: where each component listens and how
 * long start-up may take. The address variables are the components' own, so one setting
 * moves both the component and the launcher's health check.
 */
import {
  ConfigError,
  type LogFormat,
  logFormatVariable,
  readAddr,
  readLogFormat,
  readWholeNumber,
} from "@quintet/kit";

export interface LauncherConfig {
  readonly greeterAddr: string;
  readonly policyAddr: string;
  readonly modelsAddr: string;
  readonly notesAddr: string;
  /** How long a component may take to answer its health check. */
  readonly startTimeoutMs: number;
  /** Log lines as JSON or text; undefined: text on a terminal. */
  readonly logFormat?: LogFormat;
}

export const configTable = [
  ["GREETER_ADDR", "greeter's gRPC address", "127.0.0.1:20001"],
  ["POLICY_ADDR", "policy server's HTTP address (passed as `--addr`)", "localhost:8181"],
  ["LLMSRV_HOST", "model server's HTTP address", "127.0.0.1:11434"],
  ["NOTES_ADDR", "notes web app's HTTP address", "127.0.0.1:8080"],
  ["QUINTET_START_TIMEOUT_MS", "time a component gets to pass its health check", "180000"],
  [logFormatVariable.name, logFormatVariable.meaning, logFormatVariable.default],
] as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): LauncherConfig {
  const bad: string[] = [];
  const greeterAddr = readAddr(env, "GREETER_ADDR", "127.0.0.1:20001", bad);
  const policyAddr = readAddr(env, "POLICY_ADDR", "localhost:8181", bad);
  const modelsAddr = readAddr(env, "LLMSRV_HOST", "127.0.0.1:11434", bad);
  const notesAddr = readAddr(env, "NOTES_ADDR", "127.0.0.1:8080", bad);
  const startTimeoutMs = readWholeNumber(
    env,
    "QUINTET_START_TIMEOUT_MS",
    180_000,
    [1, 86_400_000],
    bad,
  );
  const logFormat = readLogFormat(env, bad);
  if (bad.length > 0) throw new ConfigError(bad);
  return Object.freeze({
    greeterAddr,
    policyAddr,
    modelsAddr,
    notesAddr,
    startTimeoutMs,
    ...(logFormat && { logFormat }),
  });
}
