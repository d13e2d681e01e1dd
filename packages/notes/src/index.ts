export { type AppOptions, buildApp } from "./app.js";
export { configTable, loadConfig, type NotesConfig } from "./config.js";
export { ConfigError, FormError, NotesError } from "./errors.js";
export { type RunningServer, startServer } from "./server.js";
