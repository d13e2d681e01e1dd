export { CONFIG_VARIABLES, type LlmsrvConfig, loadConfig } from "./config.js";
export { DEMO_MODEL_SHAPE, type DemoModelShape, writeDemoModel } from "./demo/demo-model.js";
export { DEMO_MODEL_NAME, ensureDemoModel } from "./demo/demo-setup.js";
export { ConfigError, LlmsrvError, type LlmsrvErrorCode } from "./errors.js";
export { createLogger } from "./logger.js";
export { type RunningServer, type StartOptions, startServer } from "./server.js";
export { ModelStore, type StoredModel } from "./store/model-store.js";
