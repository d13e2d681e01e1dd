// The package's public door: configuration, errors, logger, server, store and demo model.
export { type LlmsrvConfig, loadConfig } from "./config.js";
export { CONFIG_VARIABLES } from "./config-variables.js";
export { DEMO_MODEL_SHAPE, type DemoModelShape, writeDemoModel } from "./demo/demo-model.js";
export {
  DEMO_AUDIO_NAME,
  DEMO_MODEL_NAME,
  DEMO_VISION_NAME,
  ensureDemoModel,
  ensureDemoModels,
} from "./demo/demo-setup.js";
export { ConfigError, LlmsrvError, type LlmsrvErrorCode } from "./errors.js";
export { createLogger } from "./logger.js";
export { type RunningServer, type StartOptions, startServer } from "./server.js";
export { ModelStore } from "./store/model-store.js";
export type { StoredModel } from "./store/stored-model.js";
