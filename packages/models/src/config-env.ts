// Reads LLMSRV_* variables, falling back to Ollama's OLLAMA_* counterpart when one is unset.

/** The environment variables as read (process.env or a test's record). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Each LLMSRV_* variable that has an Ollama counterpart with the same meaning, so that
 * a machine set up for Ollama (OLLAMA_HOST, OLLAMA_MODELS, ...) runs llmsrv the same way.
 * OLLAMA_DEBUG stands for LLMSRV_LOG_LEVEL with its own values (see `logLevelFromOllamaDebug`).
 */
export const OLLAMA_COUNTERPARTS: Readonly<Record<string, string>> = Object.freeze({
  LLMSRV_HOST: "OLLAMA_HOST",
  LLMSRV_MODELS: "OLLAMA_MODELS",
  LLMSRV_KEEP_ALIVE: "OLLAMA_KEEP_ALIVE",
  LLMSRV_MAX_LOADED_MODELS: "OLLAMA_MAX_LOADED_MODELS",
  LLMSRV_NUM_PARALLEL: "OLLAMA_NUM_PARALLEL",
  LLMSRV_MAX_QUEUE: "OLLAMA_MAX_QUEUE",
  LLMSRV_CONTEXT_LENGTH: "OLLAMA_CONTEXT_LENGTH",
  LLMSRV_FLASH_ATTENTION: "OLLAMA_FLASH_ATTENTION",
  LLMSRV_KV_CACHE_TYPE: "OLLAMA_KV_CACHE_TYPE",
  LLMSRV_ORIGINS: "OLLAMA_ORIGINS",
  LLMSRV_NOPRUNE: "OLLAMA_NOPRUNE",
  LLMSRV_LOG_LEVEL: "OLLAMA_DEBUG",
});

/** Ollama variables whose 0 means "choose automatically": llmsrv's default then applies. */
const ZERO_MEANS_DEFAULT = new Set([
  "OLLAMA_MAX_LOADED_MODELS",
  "OLLAMA_NUM_PARALLEL",
  "OLLAMA_CONTEXT_LENGTH",
]);

/** One variable as read: the name that supplied the value (for messages) and its text. */
export interface EnvReading {
  readonly name: string;
  readonly raw: string | undefined;
}

/** Reads variables with their Ollama fallbacks, remembering which fallbacks were used. */
export class ConfigEnv {
  /** One line per OLLAMA_* variable used, for the server's log. */
  readonly notices: string[] = [];

  constructor(readonly env: Env) {}

  /** The LLMSRV_* variable when set (non-blank), else its OLLAMA_* counterpart when set. */
  read(name: string): EnvReading {
    const own = this.env[name];
    if (own !== undefined && own.trim() !== "") return { name, raw: own };
    const other = OLLAMA_COUNTERPARTS[name];
    const raw = other === undefined ? undefined : this.env[other];
    if (other === undefined || raw === undefined || raw.trim() === "") return { name, raw: own };
    if (ZERO_MEANS_DEFAULT.has(other) && raw.trim() === "0") return { name, raw: undefined };
    if (!this.notices.some((n) => n.startsWith(`using ${other}=`)))
      this.notices.push(`using ${other}=${raw.trim()} (${name} is unset)`);
    return { name: other, raw };
  }
}

/**
 * OLLAMA_DEBUG as a log level, as Ollama reads it: a true boolean (1, true) is debug, 2 or
 * more is trace, a false one (0, false) is info. Anything else is undefined (invalid).
 */
export function logLevelFromOllamaDebug(raw: string): string | undefined {
  const s = raw.trim().toLowerCase();
  if (["1", "t", "true"].includes(s)) return "debug";
  if (["0", "f", "false"].includes(s)) return "info";
  if (/^\d+$/.test(s)) return "trace";
  return undefined;
}
