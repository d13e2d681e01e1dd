/** decision_logs configuration: OPA's defaults, its checks and its messages. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "@quintet/kit";
import { parseDecisionLogsConfig } from "../../../src/plugins/decision-logs/config.js";

function problems(raw: unknown, services: string[] = ["logs"]): string[] {
  try {
    parseDecisionLogsConfig(raw, services);
  } catch (e) {
    assert.ok(e instanceof ConfigError, `ConfigError expected, got ${e}`);
    return e.problems;
  }
  assert.fail("expected the configuration to be refused");
}

describe("parseDecisionLogsConfig", () => {
  it("fills in OPA's defaults", () => {
    const c = parseDecisionLogsConfig({ service: "logs" }, ["logs"]);
    assert.deepEqual(c, {
      service: "logs",
      resource: "/logs",
      reporting: {
        bufferType: "size",
        bufferSizeLimitBytes: 0,
        bufferSizeLimitEvents: 10_000,
        uploadSizeLimitBytes: 32_768,
        minDelaySeconds: 300,
        maxDelaySeconds: 600,
        trigger: "periodic",
      },
      requestContextHeaders: [],
      maskDecision: ["system", "log", "mask"],
      dropDecision: ["system", "log", "drop"],
      console: false,
      warnings: [],
    });
  });

  it("reads every key", () => {
    const c = parseDecisionLogsConfig(
      {
        service: "b",
        resource: "/custom/logs",
        reporting: {
          buffer_type: "event",
          buffer_size_limit_events: 50,
          upload_size_limit_bytes: 1000,
          min_delay_seconds: 1,
          max_delay_seconds: 2,
          max_decisions_per_second: 2.5,
          trigger: "manual",
        },
        request_context: { http: { headers: ["Authorization", "X-Trace"] } },
        mask_decision: "my/mask",
        drop_decision: "/my/drop",
        console: true,
      },
      ["a", "b"],
    );
    assert.equal(c?.service, "b");
    assert.equal(c?.resource, "/custom/logs");
    assert.deepEqual(c?.reporting, {
      bufferType: "event",
      bufferSizeLimitBytes: 0,
      bufferSizeLimitEvents: 50,
      uploadSizeLimitBytes: 1000,
      minDelaySeconds: 1,
      maxDelaySeconds: 2,
      maxDecisionsPerSecond: 2.5,
      trigger: "manual",
    });
    assert.deepEqual(c?.requestContextHeaders, ["Authorization", "X-Trace"]);
    assert.deepEqual(c?.maskDecision, ["my", "mask"]);
    assert.deepEqual(c?.dropDecision, ["my", "drop"]);
    assert.equal(c?.console, true);
  });

  it("is off without a section, or with nothing to log to", () => {
    assert.equal(parseDecisionLogsConfig(undefined, ["logs"]), undefined);
    assert.equal(parseDecisionLogsConfig({}, []), undefined);
    assert.equal(parseDecisionLogsConfig(null, []), undefined);
  });

  it("defaults to the first service unless console logging is on", () => {
    assert.equal(parseDecisionLogsConfig({}, ["first", "second"])?.service, "first");
    const consoleOnly = parseDecisionLogsConfig({ console: true }, ["first"]);
    assert.equal(consoleOnly?.service, undefined);
    assert.equal(consoleOnly?.console, true);
    assert.equal(parseDecisionLogsConfig({ console: true }, [])?.service, undefined);
  });

  it("derives the resource from partition_name, which wins over resource", () => {
    assert.equal(
      parseDecisionLogsConfig({ partition_name: "east", resource: "/x" }, ["s"])?.resource,
      "/logs/east",
    );
  });

  it("clamps upload_size_limit_bytes to OPA's bounds with a warning", () => {
    const low = parseDecisionLogsConfig({ reporting: { upload_size_limit_bytes: 10 } }, ["s"]);
    assert.equal(low?.reporting.uploadSizeLimitBytes, 90);
    assert.deepEqual(low?.warnings, [
      "the configured `upload_size_limit_bytes` (10) has been set to the minimum limit (90)",
    ]);
    const high = parseDecisionLogsConfig({ reporting: { upload_size_limit_bytes: 2 ** 33 } }, [
      "s",
    ]);
    assert.equal(high?.reporting.uploadSizeLimitBytes, 4_294_967_296);
    assert.equal(high?.warnings.length, 1);
  });

  it("refuses what OPA refuses, with OPA's messages", () => {
    const cases: [unknown, string][] = [
      [{ service: "nope" }, 'invalid service name "nope" in decision_logs'],
      [{ plugin: "custom" }, 'invalid plugin name "custom" in decision_logs'],
      [
        { reporting: { min_delay_seconds: 10, max_delay_seconds: 5 } },
        "max reporting delay must be >= min reporting delay in decision_logs",
      ],
      [
        { reporting: { min_delay_seconds: 10 } },
        "reporting configuration missing 'max_delay_seconds' in decision_logs",
      ],
      [
        { reporting: { max_delay_seconds: 10 } },
        "reporting configuration missing 'min_delay_seconds' in decision_logs",
      ],
      [
        { reporting: { trigger: "sometimes" } },
        'invalid decision_log config: invalid trigger mode "sometimes" (want "periodic" or "manual")',
      ],
      [
        { reporting: { buffer_type: "disk" } },
        'invalid buffer type "disk", expected "event" or "size"',
      ],
      [
        { reporting: { buffer_type: "event", buffer_size_limit_bytes: 10 } },
        "invalid decision_log config, 'buffer_size_limit_bytes' isn't supported for the event buffer type",
      ],
      [
        { reporting: { buffer_size_limit_events: 10 } },
        "invalid decision_log config, 'buffer_size_limit_events' isn't supported for the size buffer type",
      ],
      [
        { reporting: { buffer_size_limit_bytes: 100, max_decisions_per_second: 1 } },
        "invalid decision_log config, specify either 'buffer_size_limit_bytes' or 'max_decisions_per_second'",
      ],
      [
        { reporting: { buffer_size_limit_bytes: 0 } },
        "invalid decision_log config, 'buffer_size_limit_bytes' must be higher than 0",
      ],
      [
        { reporting: { buffer_type: "event", buffer_size_limit_events: -1 } },
        "invalid decision_log config, 'buffer_size_limit_entries' must be higher than 0",
      ],
      [{ mask_decision: "system//mask" }, "invalid mask_decision in decision_logs: invalid path"],
      [{ drop_decision: "a//b" }, "invalid drop_decision in decision_logs: invalid path"],
      [{ resource: "/logs\u0000x" }, 'invalid resource path "/logs\u0000x"'],
      [
        { reporting: { min_delay_seconds: -1, max_delay_seconds: 5 } },
        "decision_logs.reporting.min_delay_seconds: must be >= 0",
      ],
      [
        { reporting: { max_decisions_per_second: -2 } },
        "decision_logs.reporting.max_decisions_per_second: must be >= 0",
      ],
    ];
    for (const [raw, message] of cases) {
      assert.deepEqual(problems(raw), [message], JSON.stringify(raw));
    }
  });

  it("names each key whose value has the wrong type", () => {
    assert.deepEqual(problems("yes"), ["decision_logs: expected an object"]);
    assert.deepEqual(
      problems({
        service: 7,
        console: "true",
        reporting: {
          min_delay_seconds: 0.05,
          max_delay_seconds: "10",
          upload_size_limit_bytes: 1.5,
          max_decisions_per_second: "many",
        },
        request_context: { http: { headers: "Authorization" } },
      }),
      [
        "decision_logs.service: expected a string, got 7",
        'decision_logs.console: expected true or false, got "true"',
        "decision_logs.reporting.upload_size_limit_bytes: expected an integer, got 1.5",
        "decision_logs.reporting.min_delay_seconds: expected an integer, got 0.05",
        'decision_logs.reporting.max_delay_seconds: expected an integer, got "10"',
        'decision_logs.reporting.max_decisions_per_second: expected a number, got "many"',
        "decision_logs.request_context.http.headers: expected a list of strings",
      ],
    );
    assert.deepEqual(problems({ reporting: [] }), ["decision_logs.reporting: expected an object"]);
  });
});
