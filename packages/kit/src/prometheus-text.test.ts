import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsePrometheusText, sampleValue } from "./prometheus-text.js";

const text = `# HELP http_request_duration_seconds A histogram of duration for requests.
# TYPE http_request_duration_seconds histogram
http_request_duration_seconds_bucket{le="0.005",code="200",handler="v1/data",method="POST"} 2
http_request_duration_seconds_count{code="200",handler="v1/data",method="POST"} 3
http_request_duration_seconds_count{code="404",handler="other",method="GET"} 1
queue_depth 4
odd{path="a \\"quoted\\" \\\\ value"} 1.5 1700000000000
`;

describe("Prometheus text", () => {
  it("parses names, labels (escapes included) and values, skipping comments", () => {
    const samples = parsePrometheusText(text);
    assert.equal(samples.length, 5);
    assert.deepEqual(samples[4], {
      name: "odd",
      labels: { path: 'a "quoted" \\ value' },
      value: 1.5,
    });
    assert.deepEqual(samples[3], { name: "queue_depth", labels: {}, value: 4 });
  });

  it("sums the samples whose labels include the ones asked for; 0 when none", () => {
    assert.equal(
      sampleValue(text, "http_request_duration_seconds_count", { handler: "v1/data" }),
      3,
    );
    assert.equal(sampleValue(text, "http_request_duration_seconds_count"), 4);
    assert.equal(sampleValue(text, "http_request_duration_seconds_count", { code: "500" }), 0);
  });

  it("refuses a line that is not a sample", () => {
    assert.throws(
      () => parsePrometheusText("not a metric line at all"),
      /not a Prometheus sample line/,
    );
  });
});
