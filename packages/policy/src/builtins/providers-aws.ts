/**
 * providers.aws.sign_req: signs an HTTP request object with AWS Signature Version 4 and
 * returns it with the Authorization and x-amz-* headers added, as OPA does.
 */
import { createHash, createHmac } from "node:crypto";
import { BuiltinTypeError } from "../errors.js";
import { formatValue } from "../value/format.js";
import { isInteger, toBigInt } from "../value/number.js";
import { RegoObject, RegoSet, type Value } from "../value/value.js";
import { asNumber, asObject } from "./args.js";
import { marshalJSON } from "./encoding.js";
import type { BuiltinDef } from "./registry-types.js";

const FN = "providers.aws.sign_req";

function operandError(pos: number, message: string): BuiltinTypeError {
  return new BuiltinTypeError(`${FN}: operand ${pos} ${message}`);
}

/** The string values of `keys` in `o`; reports missing keys, then non-string ones. */
function requireStrings(
  o: RegoObject,
  keys: string[],
  pos: number,
  what: string,
): Record<string, string> {
  const missing = keys.filter((k) => !o.has(k));
  if (missing.length > 0) {
    throw operandError(
      pos,
      `missing required ${what} parameters(s): ${formatValue(RegoSet.of(missing))}`,
    );
  }
  const invalid = keys.filter((k) => typeof o.get(k) !== "string");
  if (invalid.length > 0) {
    throw operandError(
      pos,
      `invalid values for required ${what} parameters(s): ${formatValue(RegoSet.of(invalid))}`,
    );
  }
  return Object.fromEntries(keys.map((k) => [k, o.get(k) as string]));
}

/** Headers proxies commonly rewrite; OPA leaves them out of the signature. */
const unsignedHeaders = new Set(["authorization", "user-agent", "x-amzn-trace-id"]);

const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) =>
  createHmac("sha256", key).update(data).digest();

interface SigningInput {
  method: string;
  /** The URL as given: its path is signed as written, like Go's URL.EscapedPath. */
  rawUrl: string;
  url: URL;
  /** Request headers as given (string values only). */
  headers: Map<string, string>;
  body: Buffer;
  service: string;
  region: string;
  accessKey: string;
  secretKey: string;
  sessionToken: string;
  time: Date;
  unsignedPayload: boolean;
}

function escapedPath(rawUrl: string, url: URL): string {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*([^?#]*)/.exec(rawUrl);
  return m ? (m[1] as string) : url.pathname;
}

/** The Authorization header value and the AWS headers to add. */
export function signV4(input: SigningInput): {
  authorization: string;
  awsHeaders: Map<string, string>;
} {
  const contentSha = input.unsignedPayload ? "UNSIGNED-PAYLOAD" : sha256Hex(input.body);
  const iso = input.time
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const date = iso.slice(0, 8);
  const awsHeaders = new Map<string, string>([
    ["host", input.url.host],
    ["x-amz-date", iso],
  ]);
  if (input.service === "s3" || input.service === "glacier")
    awsHeaders.set("x-amz-content-sha256", contentSha);
  if (input.sessionToken !== "") awsHeaders.set("x-amz-security-token", input.sessionToken);
  const toSign = new Map(awsHeaders);
  for (const [k, v] of input.headers) {
    const name = k.toLowerCase();
    if (!unsignedHeaders.has(name)) toSign.set(name, v);
  }
  const names = [...toSign.keys()].sort();
  const canonical = [
    input.method,
    escapedPath(input.rawUrl, input.url),
    input.url.search.replace(/^\?/, ""),
    ...names.map((k) => `${k}:${toSign.get(k)}`),
    "",
    names.join(";"),
    contentSha,
  ].join("\n");
  const scope = `${date}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", iso, scope, sha256Hex(canonical)].join("\n");
  let key = hmac(`AWS4${input.secretKey}`, date);
  for (const part of [input.region, input.service, "aws4_request"]) key = hmac(key, part);
  const signature = createHmac("sha256", key).update(stringToSign).digest("hex");
  const authorization = `AWS4-HMAC-SHA256 Credential=${input.accessKey}/${scope},SignedHeaders=${names.join(";")},Signature=${signature}`;
  return { authorization, awsHeaders };
}

function signingTime(v: Value): Date {
  const n = asNumber(FN, v, 3);
  // Only whole, non-negative nanosecond counts name an instant OPA can sign for.
  if (!isInteger(n) || toBigInt(n) < 0n)
    throw operandError(3, "could not convert time_ns value into a unix timestamp");
  return new Date(Number(toBigInt(n) / 1_000_000n));
}

function requestBody(req: RegoObject): Buffer {
  const raw = req.get("raw_body");
  if (typeof raw === "string") return Buffer.from(raw, "utf8");
  const body = req.get("body");
  return body === undefined ? Buffer.alloc(0) : Buffer.from(marshalJSON(body), "utf8");
}

function signRequest(args: Value[]): Value {
  const req = asObject(FN, args[0] as Value, 1);
  const { method, url } = requireStrings(req, ["method", "url"], 1, "request");
  const config = asObject(FN, args[1] as Value, 2);
  const creds = requireStrings(
    config,
    ["aws_access_key", "aws_region", "aws_secret_access_key", "aws_service"],
    2,
    "AWS config",
  );
  const disable = config.get("disable_payload_signing");
  if (disable !== undefined && typeof disable !== "boolean") {
    throw operandError(2, "invalid value for 'disable_payload_signing' in AWS config");
  }
  const time = signingTime(args[2] as Value);
  const headers = new Map<string, string>();
  const given = req.get("headers");
  if (given instanceof RegoObject) {
    for (const [k, v] of given.entries())
      if (typeof k === "string" && typeof v === "string") headers.set(k, v);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw operandError(1, `invalid url: ${url}`);
  }
  const token = config.get("aws_session_token");
  const { authorization, awsHeaders } = signV4({
    method,
    rawUrl: url,
    url: parsed,
    headers,
    body: requestBody(req),
    service: creds.aws_service as string,
    region: creds.aws_region as string,
    accessKey: creds.aws_access_key as string,
    secretKey: creds.aws_secret_access_key as string,
    sessionToken: typeof token === "string" ? token : "",
    time,
    unsignedPayload: disable === true,
  });
  const outHeaders = new RegoObject();
  for (const [k, v] of headers) outHeaders.set(k, v);
  outHeaders.set("Authorization", authorization);
  for (const [k, v] of awsHeaders) outHeaders.set(k, v);
  const out = RegoObject.fromEntries(req.entries());
  out.set("headers", outHeaders);
  return out;
}

export const providersAwsBuiltins: BuiltinDef[] = [
  {
    name: "providers.aws.sign_req",
    args: ["object", "object", "number"],
    result: "object",
    impl: (args) => signRequest(args),
  },
];
