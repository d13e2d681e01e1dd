/**
 * The `decision_logs` section of the configuration file, read and checked as OPA's decision
 * logs plugin does: the same keys, defaults and error messages. Unknown keys are ignored, as
 * in OPA (whose decoder skips them).
 */
import { ConfigError } from "@quintet/kit";

export type BufferType = "size" | "event";
export type TriggerMode = "periodic" | "manual";

/** The checked section, defaults filled in. */
export interface DecisionLogsConfig {
  /** Service that receives uploads; undefined: console only. */
  readonly service?: string;
  /** Path below the service URL the batches are POSTed to. */
  readonly resource: string;
  readonly reporting: {
    readonly bufferType: BufferType;
    /** Size buffer: most compressed bytes held; 0 = no limit. */
    readonly bufferSizeLimitBytes: number;
    /** Event buffer: most events held. */
    readonly bufferSizeLimitEvents: number;
    /** Largest gzip-compressed body of one upload. */
    readonly uploadSizeLimitBytes: number;
    readonly minDelaySeconds: number;
    readonly maxDelaySeconds: number;
    /** Events buffered per second at most; undefined: no limit. */
    readonly maxDecisionsPerSecond?: number;
    readonly trigger: TriggerMode;
  };
  /** Request headers copied into `request_context.http.headers`. */
  readonly requestContextHeaders: readonly string[];
  /** Path below data of the mask rule, e.g. ["system", "log", "mask"]. */
  readonly maskDecision: readonly string[];
  /** Path below data of the drop rule. */
  readonly dropDecision: readonly string[];
  /** Also log each decision as a JSON line on the console. */
  readonly console: boolean;
  /** Values changed to fit OPA's bounds; the caller logs them as warnings. */
  readonly warnings: readonly string[];
}

const DEFAULT_MIN_DELAY_SECONDS = 300;
const DEFAULT_MAX_DELAY_SECONDS = 600;
const DEFAULT_BUFFER_SIZE_LIMIT_EVENTS = 10_000;
const DEFAULT_UPLOAD_SIZE_LIMIT_BYTES = 32_768;
/** One event holding only a decision id plus an empty gzip stream (OPA's floor). */
const MIN_UPLOAD_SIZE_LIMIT_BYTES = 90;
const MAX_UPLOAD_SIZE_LIMIT_BYTES = 4_294_967_296;
const DEFAULT_MASK_DECISION = "/system/log/mask";
const DEFAULT_DROP_DECISION = "/system/log/drop";

type Raw = Record<string, unknown>;

/** Reads JSON-shaped values, collecting one problem per bad key. */
class SectionReader {
  readonly problems: string[] = [];

  object(value: unknown, key: string): Raw {
    if (value === undefined || value === null) return {};
    if (typeof value === "object" && !Array.isArray(value)) return value as Raw;
    this.problems.push(`${key}: expected an object`);
    return {};
  }

  string(value: unknown, key: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string") return value;
    this.problems.push(`${key}: expected a string, got ${JSON.stringify(value)}`);
    return undefined;
  }

  boolean(value: unknown, key: string): boolean {
    if (value === undefined || value === null) return false;
    if (typeof value === "boolean") return value;
    this.problems.push(`${key}: expected true or false, got ${JSON.stringify(value)}`);
    return false;
  }

  /** OPA reads these as int64: fractions and text are refused. */
  integer(value: unknown, key: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === "number" && Number.isSafeInteger(value)) return value;
    this.problems.push(`${key}: expected an integer, got ${JSON.stringify(value)}`);
    return undefined;
  }

  number(value: unknown, key: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === "number" && Number.isFinite(value)) return value;
    this.problems.push(`${key}: expected a number, got ${JSON.stringify(value)}`);
    return undefined;
  }

  strings(value: unknown, key: string): string[] {
    if (value === undefined || value === null) return [];
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value;
    this.problems.push(`${key}: expected a list of strings`);
    return [];
  }
}

/** OPA's ParseDataPath: "/system/log/mask" (leading slash optional) → path below data. */
function dataPath(text: string): string[] | undefined {
  const trimmed = text.replace(/^\/+/, "");
  if (trimmed === "") return [];
  const parts = trimmed.split("/");
  return parts.some((p) => p === "") ? undefined : parts;
}

/** Go's url.Parse refuses these, the one way OPA's resource check fails. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * Checks `raw` (the parsed `decision_logs` value) against the names of the configured
 * services. Returns undefined when decision logging stays off: no section, or (as in OPA) a
 * section naming no service while no services exist and console logging is off.
 * Throws ConfigError naming the offending key.
 */
export function parseDecisionLogsConfig(
  raw: unknown,
  serviceNames: readonly string[],
): DecisionLogsConfig | undefined {
  if (raw === undefined) return undefined;
  const r = new SectionReader();
  const section = r.object(raw, "decision_logs");
  const plugin = r.string(section.plugin, "decision_logs.plugin");
  let service = r.string(section.service, "decision_logs.service") || undefined;
  const partitionName = r.string(section.partition_name, "decision_logs.partition_name");
  const resource = r.string(section.resource, "decision_logs.resource");
  const consoleLogs = r.boolean(section.console, "decision_logs.console");
  const maskText = r.string(section.mask_decision, "decision_logs.mask_decision");
  const dropText = r.string(section.drop_decision, "decision_logs.drop_decision");
  r.boolean(section.nd_builtin_cache, "decision_logs.nd_builtin_cache");
  const rep = r.object(section.reporting, "decision_logs.reporting");
  const key = (k: string) => `decision_logs.reporting.${k}`;
  const bufferTypeText = r.string(rep.buffer_type, key("buffer_type"));
  const bufferBytes = r.integer(rep.buffer_size_limit_bytes, key("buffer_size_limit_bytes"));
  const bufferEvents = r.integer(rep.buffer_size_limit_events, key("buffer_size_limit_events"));
  const uploadLimit = r.integer(rep.upload_size_limit_bytes, key("upload_size_limit_bytes"));
  const minDelay = r.integer(rep.min_delay_seconds, key("min_delay_seconds"));
  const maxDelay = r.integer(rep.max_delay_seconds, key("max_delay_seconds"));
  const perSecond = r.number(rep.max_decisions_per_second, key("max_decisions_per_second"));
  const triggerText = r.string(rep.trigger, key("trigger"));
  const context = r.object(section.request_context, "decision_logs.request_context");
  const http = r.object(context.http, "decision_logs.request_context.http");
  const headers = r.strings(http.headers, "decision_logs.request_context.http.headers");
  if (r.problems.length > 0) throw new ConfigError(r.problems);

  const fail = (message: string): never => {
    throw new ConfigError([message]);
  };
  if (plugin === undefined && service === undefined && serviceNames.length === 0 && !consoleLogs) {
    return undefined;
  }
  // No decision logger plugins can be registered here, so any name is unknown.
  if (plugin !== undefined) fail(`invalid plugin name "${plugin}" in decision_logs`);
  if (service === undefined && serviceNames.length > 0 && !consoleLogs) {
    // OPA's backwards-compatible default: the first service, unless console logging is on.
    service = serviceNames[0];
  } else if (service !== undefined && !serviceNames.includes(service)) {
    fail(`invalid service name "${service}" in decision_logs`);
  }
  const trigger = triggerText ?? "periodic";
  if (trigger !== "periodic" && trigger !== "manual") {
    fail(
      `invalid decision_log config: invalid trigger mode "${trigger}" (want "periodic" or "manual")`,
    );
  }
  if (minDelay !== undefined && maxDelay !== undefined && maxDelay < minDelay) {
    fail("max reporting delay must be >= min reporting delay in decision_logs");
  } else if (minDelay !== undefined && maxDelay === undefined) {
    fail("reporting configuration missing 'max_delay_seconds' in decision_logs");
  } else if (minDelay === undefined && maxDelay !== undefined) {
    fail("reporting configuration missing 'min_delay_seconds' in decision_logs");
  }
  // OPA lets a negative delay through (and then uploads in a busy loop); refuse it instead.
  if (minDelay !== undefined && minDelay < 0) fail(`${key("min_delay_seconds")}: must be >= 0`);

  const warnings: string[] = [];
  let uploadSizeLimitBytes = uploadLimit ?? DEFAULT_UPLOAD_SIZE_LIMIT_BYTES;
  if (uploadSizeLimitBytes > MAX_UPLOAD_SIZE_LIMIT_BYTES) {
    warnings.push(
      `the configured \`upload_size_limit_bytes\` (${uploadSizeLimitBytes}) has been set to the maximum limit (${MAX_UPLOAD_SIZE_LIMIT_BYTES})`,
    );
    uploadSizeLimitBytes = MAX_UPLOAD_SIZE_LIMIT_BYTES;
  } else if (uploadSizeLimitBytes < MIN_UPLOAD_SIZE_LIMIT_BYTES) {
    warnings.push(
      `the configured \`upload_size_limit_bytes\` (${uploadSizeLimitBytes}) has been set to the minimum limit (${MIN_UPLOAD_SIZE_LIMIT_BYTES})`,
    );
    uploadSizeLimitBytes = MIN_UPLOAD_SIZE_LIMIT_BYTES;
  }

  const bufferType = bufferTypeText ?? "size";
  if (bufferType !== "size" && bufferType !== "event") {
    fail(`invalid buffer type "${bufferType}", expected "event" or "size"`);
  }
  if (bufferType === "event" && bufferBytes !== undefined) {
    fail(
      "invalid decision_log config, 'buffer_size_limit_bytes' isn't supported for the event buffer type",
    );
  }
  if (bufferType === "size" && bufferEvents !== undefined) {
    fail(
      "invalid decision_log config, 'buffer_size_limit_events' isn't supported for the size buffer type",
    );
  }
  if (bufferBytes !== undefined && perSecond !== undefined) {
    fail(
      "invalid decision_log config, specify either 'buffer_size_limit_bytes' or 'max_decisions_per_second'",
    );
  }
  if (bufferBytes !== undefined && bufferBytes <= 0) {
    fail("invalid decision_log config, 'buffer_size_limit_bytes' must be higher than 0");
  }
  if (bufferEvents !== undefined && bufferEvents <= 0) {
    // OPA's message says "entries" for this key.
    fail("invalid decision_log config, 'buffer_size_limit_entries' must be higher than 0");
  }
  if (perSecond !== undefined && perSecond < 0) {
    fail(`${key("max_decisions_per_second")}: must be >= 0`);
  }

  const maskDecision = dataPath(maskText ?? DEFAULT_MASK_DECISION);
  if (!maskDecision) fail("invalid mask_decision in decision_logs: invalid path");
  const dropDecision = dataPath(dropText ?? DEFAULT_DROP_DECISION);
  if (!dropDecision) fail("invalid drop_decision in decision_logs: invalid path");

  let resourcePath = resource ?? "/logs";
  if (partitionName) resourcePath = `/logs/${partitionName}`;
  else if (resource !== undefined && hasControlCharacter(resource)) {
    fail(`invalid resource path "${resource}"`);
  }

  return {
    service,
    resource: resourcePath,
    reporting: {
      bufferType: bufferType as BufferType,
      bufferSizeLimitBytes: bufferBytes ?? 0,
      bufferSizeLimitEvents: bufferEvents ?? DEFAULT_BUFFER_SIZE_LIMIT_EVENTS,
      uploadSizeLimitBytes,
      minDelaySeconds: minDelay ?? DEFAULT_MIN_DELAY_SECONDS,
      maxDelaySeconds: maxDelay ?? DEFAULT_MAX_DELAY_SECONDS,
      ...(perSecond !== undefined && { maxDecisionsPerSecond: perSecond }),
      trigger: trigger as TriggerMode,
    },
    requestContextHeaders: headers,
    maskDecision: maskDecision as string[],
    dropDecision: dropDecision as string[],
    console: consoleLogs,
    warnings,
  };
}
