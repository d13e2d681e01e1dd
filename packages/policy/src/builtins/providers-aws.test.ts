import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { RegoObject } from "../value/value.js";
import { callBuiltin, typeError } from "./testing/call-builtin.js";

const config = {
  aws_access_key: "MYAWSACCESSKEYGOESHERE",
  aws_secret_access_key: "MYAWSSECRETACCESSKEYGOESHERE",
  aws_service: "s3",
  aws_region: "us-east-1",
};
const time = 1451311705000000000n;

function headersOf(result: unknown): Record<string, unknown> {
  const headers = (result as RegoObject).get("headers") as RegoObject;
  return Object.fromEntries(headers.entries() as Iterable<[string, unknown]>);
}

describe("providers.aws.sign_req", () => {
  test("adds the SigV4 Authorization, date, host and payload hash headers", () => {
    const out = callBuiltin("providers.aws.sign_req", [
      { method: "get", url: "http://example.com" },
      config,
      time,
    ]);
    assert.deepEqual(headersOf(out), {
      Authorization:
        "AWS4-HMAC-SHA256 Credential=MYAWSACCESSKEYGOESHERE/20151228/us-east-1/s3/aws4_request,SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=0047a7016c81e5c7f29cd522f97e911e04fc472fced0aee7916cbc287ad6c8e3",
      host: "example.com",
      "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "x-amz-date": "20151228T140825Z",
    });
    assert.equal((out as RegoObject).get("method"), "get");
  });

  test("signs the user's headers and the session token, and can leave the payload unsigned", () => {
    const out = callBuiltin("providers.aws.sign_req", [
      { method: "get", url: "https://example.com", headers: { foo: "bar" } },
      { ...config, aws_session_token: "TOKEN", disable_payload_signing: true },
      time,
    ]);
    const headers = headersOf(out);
    assert.equal(headers["x-amz-content-sha256"], "UNSIGNED-PAYLOAD");
    assert.equal(headers["x-amz-security-token"], "TOKEN");
    assert.match(
      headers.Authorization as string,
      /SignedHeaders=foo;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,/,
    );
  });

  test("leaves headers that proxies rewrite out of the signature", () => {
    const plain = headersOf(
      callBuiltin("providers.aws.sign_req", [
        { method: "get", url: "http://example.com" },
        config,
        time,
      ]),
    );
    const withAgent = headersOf(
      callBuiltin("providers.aws.sign_req", [
        {
          method: "get",
          url: "http://example.com",
          headers: { "User-Agent": "x", "X-Amzn-Trace-Id": "y" },
        },
        config,
        time,
      ]),
    );
    assert.equal(withAgent.Authorization, plain.Authorization);
    assert.equal(withAgent["User-Agent"], "x");
  });

  test("names missing and mistyped request and config parameters", () => {
    assert.throws(
      () => callBuiltin("providers.aws.sign_req", [{}, config, time]),
      typeError(
        'providers.aws.sign_req: operand 1 missing required request parameters(s): {"method", "url"}',
      ),
    );
    assert.throws(
      () =>
        callBuiltin("providers.aws.sign_req", [
          { method: "get", url: "http://x" },
          { ...config, aws_region: 5 },
          time,
        ]),
      typeError(
        'providers.aws.sign_req: operand 2 invalid values for required AWS config parameters(s): {"aws_region"}',
      ),
    );
    assert.throws(
      () =>
        callBuiltin("providers.aws.sign_req", [
          { method: "get", url: "http://x" },
          { ...config, disable_payload_signing: "false" },
          time,
        ]),
      typeError(
        "providers.aws.sign_req: operand 2 invalid value for 'disable_payload_signing' in AWS config",
      ),
    );
    assert.throws(
      () =>
        callBuiltin("providers.aws.sign_req", [{ method: "get", url: "http://x" }, config, 1.5]),
      typeError(
        "providers.aws.sign_req: operand 3 could not convert time_ns value into a unix timestamp",
      ),
    );
  });
});
