/**
 * The text of Data API answers: the direct writer for plain results and the general path
 * (objects with digit-led or non-string keys, big integers, sets, undefined documents).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import { type Harness, startHarness } from "./server-harness.js";

const POLICY = `package shapes

plain := {"b": [1, 2.5, "x"], "a": {"nested": true}, "s": {"z", "y"}}

digit_keys := {"b": 1, "10": 2, "2": 3}

non_string_keys := {1: "one", [2]: "two"}

big := 123456789012345678901234567890

floats := {"d": 0.3 - 0.2, "lit": 0.00}

float_keys := {1.50: 0.3 - 0.2, "n": [2.0]}

nothing if false

echo := input
`;

describe("answer text of the Data API", () => {
  let h: Harness;
  let tree: ReturnType<typeof tempTree>;
  before(async () => {
    tree = tempTree({ "shapes.rego": POLICY });
    h = await startHarness([tree.dir]);
  });
  after(async () => {
    await h.server.close(1000);
    tree.remove();
  });

  const text = async (path: string): Promise<string> => {
    const res = await h.post(path, JSON.stringify({ input: {} }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    const body = await res.text();
    assert.equal(Number(res.headers.get("content-length")), Buffer.byteLength(body));
    return body;
  };

  it("writes a plain result with keys and set members sorted", async () => {
    assert.equal(
      await text("/v1/data/shapes/plain"),
      '{"result":{"a":{"nested":true},"b":[1,2.5,"x"],"s":["y","z"]}}\n',
    );
  });

  it("writes digit-led keys in the order a JSON object takes them", async () => {
    assert.equal(await text("/v1/data/shapes/digit_keys"), '{"result":{"2":3,"10":2,"b":1}}\n');
  });

  it("writes non-string keys as their JSON text", async () => {
    assert.equal(
      await text("/v1/data/shapes/non_string_keys"),
      '{"result":{"1":"one","[2]":"two"}}\n',
    );
  });

  it("writes big integers with every digit", async () => {
    assert.equal(await text("/v1/data/shapes/big"), '{"result":123456789012345678901234567890}\n');
  });

  it("writes float results and decimal literals with OPA's number text", async () => {
    assert.equal(
      await text("/v1/data/shapes/floats"),
      '{"result":{"d":0.10000000000000000001,"lit":0.00}}\n',
    );
    assert.equal(
      await text("/v1/data/shapes/float_keys"),
      '{"result":{"1.50":0.10000000000000000001,"n":[2.0]}}\n',
    );
  });

  it("answers an undefined document with an empty object", async () => {
    assert.equal(await text("/v1/data/shapes/nothing"), "{}\n");
  });

  it("reads input bodies exactly: escapes, numbers, duplicate keys", async () => {
    const post = async (body: string) => (await h.post("/v1/data/shapes/echo", body)).text();
    assert.equal(
      await post('{"input": {"s": "a\\u00e9\\n", "n": [1.5, -0, 1e2], "d": 1, "d": 2}}'),
      '{"result":{"d":2,"n":[1.5,0,100],"s":"aé\\n"}}\n',
    );
    assert.equal(
      await post('{"input": {"n": 12345678901234567890, "t": [true, null]}}'),
      '{"result":{"n":12345678901234567890,"t":[true,null]}}\n',
    );
  });

  it("keeps a lone surrogate escape as JSON.parse reads it, unless a long number asks for the exact reader", async () => {
    const post = async (body: string) => (await h.post("/v1/data/shapes/echo", body)).text();
    assert.equal(await post('{"input": {"s": "x\\ud800"}}'), '{"result":{"s":"x\\ud800"}}\n');
    assert.equal(
      await post('{"input": {"s": "x\\ud800", "n": 12345678901234567890}}'),
      '{"result":{"n":12345678901234567890,"s":"x\ufffd"}}\n',
    );
  });
});
