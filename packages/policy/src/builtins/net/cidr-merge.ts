/**
 * Merging networks into the smallest list of CIDRs that covers exactly the same addresses,
 * as net.cidr_merge does: per family, networks become address ranges, overlapping or
 * adjacent ranges join, and each joined range splits back into aligned CIDR blocks.
 */
import { type IpNetwork, lastAddress } from "./ip-address.js";

interface Range {
  start: bigint;
  end: bigint;
}

function rangesOf(networks: IpNetwork[]): Range[] {
  const ranges = networks
    .map((n) => ({ start: n.base.value, end: lastAddress(n).value }))
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const joined: Range[] = [];
  for (const r of ranges) {
    const last = joined[joined.length - 1];
    if (last && r.start <= last.end + 1n) {
      if (r.end > last.end) last.end = r.end;
    } else joined.push({ ...r });
  }
  return joined;
}

/** The largest aligned block starting at `start` that does not pass `end`. */
function largestBlock(start: bigint, end: bigint, bits: number): number {
  let prefix = bits;
  while (prefix > 0) {
    const size = 1n << BigInt(bits - prefix + 1);
    if (start % size !== 0n || start + size - 1n > end) break;
    prefix--;
  }
  return prefix;
}

function splitRange(range: Range, bits: 32 | 128): IpNetwork[] {
  const out: IpNetwork[] = [];
  let start = range.start;
  while (start <= range.end) {
    const prefix = largestBlock(start, range.end, bits);
    out.push({ base: { bits, value: start }, prefix });
    start += 1n << BigInt(bits - prefix);
  }
  return out;
}

/** The minimal set of networks covering the same addresses, IPv4 first. */
export function mergeNetworks(networks: IpNetwork[]): IpNetwork[] {
  const out: IpNetwork[] = [];
  for (const bits of [32, 128] as const) {
    const family = networks.filter((n) => n.base.bits === bits);
    for (const range of rangesOf(family)) out.push(...splitRange(range, bits));
  }
  return out;
}
