/**
 * The options object of crypto.x509.parse_and_verify_certificates_with_options, checked as
 * OPA checks it: DNSName, CurrentTime (ns), MaxConstraintComparisons and KeyUsages.
 */
import { BuiltinError } from "../../errors.js";
import { isInteger, isNumber, toBigInt } from "../../value/number.js";
import { type RegoObject, RegoSet, type Value } from "../../value/value.js";

/** Go's x509.ExtKeyUsage numbers by the names OPA accepts. */
const extKeyUsageNames: Record<string, number> = {
  KeyUsageAny: 0,
  KeyUsageServerAuth: 1,
  KeyUsageClientAuth: 2,
  KeyUsageCodeSigning: 3,
  KeyUsageEmailProtection: 4,
  KeyUsageIPSECEndSystem: 5,
  KeyUsageIPSECTunnel: 6,
  KeyUsageIPSECUser: 7,
  KeyUsageTimeStamping: 8,
  KeyUsageOCSPSigning: 9,
  KeyUsageMicrosoftServerGatedCrypto: 10,
  KeyUsageNetscapeServerGatedCrypto: 11,
  KeyUsageMicrosoftCommercialCodeSigning: 12,
  KeyUsageMicrosoftKernelCodeSigning: 13,
};

export interface ChainOptions {
  dnsName?: string;
  /** Milliseconds since the epoch; undefined means now. */
  nowMs?: number;
  /** Required extended key usages; empty means server authentication, as in Go. */
  keyUsages: number[];
}

function keyUsages(v: Value): number[] {
  if (!Array.isArray(v) && !(v instanceof RegoSet))
    throw new BuiltinError("'KeyUsages' should be an Array or Set");
  const out: number[] = [];
  const invalid: string[] = [];
  for (const u of v) {
    if (typeof u !== "string") continue;
    const known = extKeyUsageNames[u];
    if (known === undefined) invalid.push(u);
    else out.push(known);
  }
  if (invalid.length > 0)
    throw new BuiltinError(`invalid entries for 'KeyUsages' found: [${invalid.join(" ")}]`);
  return out;
}

/** Parses the options; unknown keys and mistyped values are errors. */
export function chainOptions(options: RegoObject | undefined): ChainOptions {
  const out: ChainOptions = { keyUsages: [] };
  for (const [key, v] of options?.sortedEntries() ?? []) {
    if (typeof key !== "string") continue;
    switch (key) {
      case "DNSName":
        if (typeof v !== "string") throw new BuiltinError("'DNSName' should be a string");
        out.dnsName = v.replace(/^"+|"+$/g, "");
        break;
      case "CurrentTime":
        if (!isNumber(v)) throw new BuiltinError("'CurrentTime' should be a number");
        if (!isInteger(v)) throw new BuiltinError("'CurrentTime' should be a valid int64 number");
        out.nowMs = Number(toBigInt(v) / 1_000_000n);
        break;
      case "MaxConstraintComparisons":
        if (!isNumber(v)) throw new BuiltinError("'MaxConstraintComparisons' should be a number");
        if (!isInteger(v))
          throw new BuiltinError("'MaxConstraintComparisons' should be a valid number");
        break;
      case "KeyUsages":
        out.keyUsages = keyUsages(v);
        break;
      default:
        throw new BuiltinError("invalid key option");
    }
  }
  return out;
}
