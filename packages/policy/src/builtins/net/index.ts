/**
 * The `net.*` builtins: CIDR containment, intersection, expansion, validation and merging
 * for IPv4 and IPv6 with Go's parsing rules, and `net.lookup_ip_addr`: through the system
 * resolver when the query runs asynchronously (see builtins/external-calls.ts), from literal
 * addresses and the hosts file when it runs synchronously.
 */
import { lookup } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { BuiltinError } from "../../errors.js";
import { RegoObject, RegoSet, type Value } from "../../value/value.js";
import { asString, oneOfError } from "../args.js";
import { checkSize } from "../limits.js";
import type { BuiltinDef } from "../registry-types.js";
import { mergeNetworks } from "./cidr-merge.js";
import {
  formatIp,
  formatNetwork,
  type IpNetwork,
  lastAddress,
  networkContains,
  networkOf,
  parseCidr,
  parseIp,
} from "./ip-address.js";

/** The largest network `net.cidr_expand` lists (a /8 in IPv4 terms). */
const MAX_EXPAND = 1n << 24n;

function cidrOperand(name: string, v: Value, pos: number): IpNetwork {
  const text = asString(name, v, pos);
  const net = parseCidr(text);
  if (!net) throw new BuiltinError(`${name}: invalid CIDR address: ${text}`);
  return net;
}

/** Does CIDR `outer` contain the address or whole CIDR `inner`? */
function contains(name: string, outer: string, inner: string): boolean {
  const net = parseCidr(outer);
  if (!net) throw new BuiltinError(`${name}: invalid CIDR address: ${outer}`);
  const ip = parseIp(inner);
  if (ip) return networkContains(net, ip);
  const sub = parseCidr(inner);
  if (!sub) throw new BuiltinError(`${name}: invalid CIDR address: ${inner}`);
  return networkContains(net, sub.base) && networkContains(net, lastAddress(sub));
}

/** For cidr_contains_matches: a string, or the first element of a non-empty array. */
function matchTerm(name: string, v: Value, pos: number): Value {
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.length > 0) return v[0] as Value;
  throw new BuiltinError(`${name}: operand ${pos}: element must be string or non-empty array`);
}

/** The (cidr, key) pairs of a cidr_contains_matches operand. */
function matchOperand(name: string, v: Value, pos: number): [Value, Value][] {
  if (typeof v === "string") return [[v, v]];
  if (Array.isArray(v)) return v.map((x, i) => [matchTerm(name, x, pos), i]);
  if (v instanceof RegoSet) return v.sorted().map((x) => [matchTerm(name, x, pos), x]);
  if (v instanceof RegoObject) {
    return v.sortedEntries().map(([k, x]) => [matchTerm(name, x, pos), k]);
  }
  return [];
}

/**
 * A cidr_merge element: a CIDR, or an IPv4 address widened to its classful network (class A
 * /8, B /16, C and above /24), as Go's IP.DefaultMask gives it; IPv6 needs a prefix.
 */
function mergeElement(name: string, v: Value): IpNetwork {
  if (typeof v !== "string") throw new BuiltinError(`${name}: element must be string`);
  if (v.includes("/")) {
    const net = parseCidr(v);
    if (!net) throw new BuiltinError(`${name}: invalid CIDR address: ${v}`);
    return net;
  }
  const ip = parseIp(v);
  if (!ip) throw new BuiltinError(`${name}: invalid IP address: ${v}`);
  if (ip.bits !== 32) throw new BuiltinError(`${name}: IPv6 invalid: needs prefix length`);
  const firstOctet = Number(ip.value >> 24n);
  return networkOf(ip, firstOctet < 0x80 ? 8 : firstOctet < 0xc0 ? 16 : 24);
}

/** Addresses of `host` from the hosts file; names are matched case-insensitively. */
function hostsFileAddresses(host: string): string[] {
  let text: string;
  try {
    text = readFileSync("/etc/hosts", "utf8");
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const line of text.split("\n")) {
    const [addr, ...names] = (line.split("#")[0] as string).trim().split(/\s+/);
    const ip = addr ? parseIp(addr) : undefined;
    if (ip && names.some((n) => n.toLowerCase() === host.toLowerCase())) found.push(formatIp(ip));
  }
  return found;
}

/** The addresses the system resolver (hosts file, DNS) gives for `host`, as Go prints them. */
async function resolveHost(host: string): Promise<string[] | { error: string }> {
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    const out: string[] = [];
    for (const a of found) {
      const ip = parseIp(a.address);
      out.push(ip ? formatIp(ip) : a.address);
    }
    return out;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOTFOUND" || code === "ENODATA" ? "no such host" : String((e as Error).message);
    return { error: `lookup ${host}: ${why}` };
  }
}

const cidrContains: BuiltinDef["impl"] = ([cidr, cidrOrIp]) => {
  const name = "net.cidr_contains";
  return contains(name, asString(name, cidr as Value, 1), asString(name, cidrOrIp as Value, 2));
};

export const netBuiltins: BuiltinDef[] = [
  { name: "net.cidr_contains", args: ["string", "string"], result: "boolean", impl: cidrContains },
  { name: "net.cidr_overlap", args: ["string", "string"], result: "boolean", impl: cidrContains },
  {
    name: "net.cidr_intersects",
    args: ["string", "string"],
    result: "boolean",
    impl: ([a, b]) => {
      const name = "net.cidr_intersects";
      const x = cidrOperand(name, a as Value, 1);
      const y = cidrOperand(name, b as Value, 2);
      return networkContains(x, y.base) || networkContains(y, x.base);
    },
  },
  {
    name: "net.cidr_contains_matches",
    args: ["string | array | set | object", "string | array | set | object"],
    result: "set[array]",
    impl: ([cidrs, cidrsOrIps]) => {
      const name = "net.cidr_contains_matches";
      const outer = matchOperand(name, cidrs as Value, 1);
      const inner = matchOperand(name, cidrsOrIps as Value, 2);
      const out = new RegoSet();
      for (const [cidr, i] of outer) {
        for (const [addr, j] of inner) {
          if (typeof cidr === "string" && typeof addr === "string" && contains(name, cidr, addr))
            out.add([i, j]);
        }
      }
      return out;
    },
  },
  {
    name: "net.cidr_expand",
    args: ["string"],
    result: "set[string]",
    impl: ([cidr], ctx) => {
      const name = "net.cidr_expand";
      const net = cidrOperand(name, cidr as Value, 1);
      const last = lastAddress(net).value;
      checkSize(ctx, name, last - net.base.value + 1n);
      if (last - net.base.value >= MAX_EXPAND)
        throw new BuiltinError(`${name}: network too large to expand: ${cidr}`);
      const out = new RegoSet();
      for (let v = net.base.value; v <= last; v++) {
        ctx.checkCancel();
        out.add(formatIp({ bits: net.base.bits, value: v }));
      }
      return out;
    },
  },
  {
    name: "net.cidr_is_valid",
    args: ["string"],
    result: "boolean",
    impl: ([cidr]) => typeof cidr === "string" && parseCidr(cidr) !== undefined,
  },
  {
    name: "net.cidr_merge",
    args: ["array[string] | set[string]"],
    result: "set[string]",
    impl: ([addrs]) => {
      const name = "net.cidr_merge";
      let items: Value[];
      if (Array.isArray(addrs)) items = addrs;
      else if (addrs instanceof RegoSet) items = addrs.sorted();
      else throw oneOfError(name, 1, ["array", "set"], addrs as Value);
      const merged = mergeNetworks(items.map((v) => mergeElement(name, v)));
      return RegoSet.of(merged.map(formatNetwork));
    },
  },
  {
    name: "net.lookup_ip_addr",
    args: ["string"],
    result: "set[string]",
    nondeterministic: true,
    impl: ([host], ctx) => {
      const name = "net.lookup_ip_addr";
      const text = asString(name, host as Value, 1);
      const literal = parseIp(text);
      if (literal) return RegoSet.of([formatIp(literal)]);
      const ext = ctx.external;
      if (ext === undefined) {
        // Synchronous evaluation cannot wait for a resolver: the hosts file only.
        const found = hostsFileAddresses(text);
        if (found.length === 0) throw new BuiltinError(`${name}: lookup ${text}: no such host`);
        return RegoSet.of(found);
      }
      const outcome = ext.outcome({
        key: `${name}:${text}`,
        perform: () => resolveHost(text),
      }) as string[] | { error: string };
      if (!Array.isArray(outcome)) throw new BuiltinError(`${name}: ${outcome.error}`);
      return RegoSet.of(outcome);
    },
  },
];
