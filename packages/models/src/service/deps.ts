// What request handlers share: configuration, store, scheduler, logger.
import type { Logger } from "pino";
import type { LlmsrvConfig } from "../config.js";
import type { Scheduler } from "../runtime/scheduler.js";
import type { ModelStore } from "../store/model-store.js";

/** The Ollama API version this server reports on `/api/version` and emulates. */
export const API_VERSION = "0.12.0";

/** What handlers and services share: configuration, the store, the scheduler, a logger. */
export interface ServerDeps {
  readonly config: LlmsrvConfig;
  readonly store: ModelStore;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** First wait before retrying an interrupted blob download (tests shorten Ollama's 1 s). */
  readonly pullRetryDelayMs?: number;
}
