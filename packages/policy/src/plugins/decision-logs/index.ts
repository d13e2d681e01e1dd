export { type DecisionLogsConfig, parseDecisionLogsConfig } from "./config.js";
export {
  DecisionLogsPlugin,
  type DecisionLogsPluginOptions,
  type DecisionLogsStatus,
  type PluginLog,
  type RuleEvaluator,
  type UploadTiming,
} from "./decision-logs-plugin.js";
export type { LogService } from "./log-service.js";
