export { type CliIo, type Command, EXIT } from "./cli-io.js";
export { ConfigError } from "./config-error.js";
export { isEntryPoint } from "./entry-point.js";
export { addrProblem, readAddr, readWholeNumber } from "./env-readers.js";
export {
  isLogRecord,
  type LogFormat,
  type LogLevel,
  type LogRecord,
  logFormatVariable,
  logLevels,
  readLogFormat,
  recordOf,
  renderText,
  resolveLogFormat,
  toRecord,
} from "./log-format.js";
export { createLogger, type LogDestination, type Logger, type LoggerOptions } from "./logger.js";
export { type PidLock, type PidLockRefusal, takePidLock } from "./pid-lock-file.js";
export { processIo } from "./process-io.js";
export { parsePrometheusText, type Sample, sampleValue } from "./prometheus-text.js";
export type { SqlClient, SqlDriver, SqlResult } from "./sql-client.js";
export {
  type SecondSignal,
  type StopSignalOptions,
  stopSignal,
  stopSignalNames,
  whenAborted,
} from "./stop-signal.js";
export type { TextSink } from "./text-sink.js";
