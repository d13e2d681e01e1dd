/**
 * IP addresses and CIDR networks as Go's `net` package reads and prints them: IPv4 dotted
 * quads without leading zeros, IPv6 with `::` and an optional trailing IPv4 part, and
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) treated as IPv4, as net.IP.To4 does.
 */

/** An address: its family width (32 or 128 bits) and its value. */
export interface IpAddress {
  readonly bits: 32 | 128;
  readonly value: bigint;
}

/** A network: the masked base address and the prefix length. */
export interface IpNetwork {
  readonly base: IpAddress;
  readonly prefix: number;
}

const MAPPED_PREFIX = 0xffffn << 32n;

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || (part.length > 1 && part[0] === "0")) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseGroups(text: string): bigint[] | undefined {
  if (text === "") return [];
  const groups: bigint[] = [];
  const parts = text.split(":");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIPv4(part);
      if (v4 === undefined) return undefined;
      groups.push(v4 >> 16n, v4 & 0xffffn);
      continue;
    }
    if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
    groups.push(BigInt(`0x${part}`));
  }
  return groups;
}

function parseIPv6(text: string): bigint | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0] as string);
  const tail = halves.length === 2 ? parseGroups(halves[1] as string) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<bigint>(missing).fill(0n), ...tail];
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** Parses an address; IPv4-mapped IPv6 addresses come back as IPv4. */
export function parseIp(text: string): IpAddress | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return { bits: 32, value: v4 };
  if (!text.includes(":")) return undefined;
  const v6 = parseIPv6(text);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === MAPPED_PREFIX >> 32n) return { bits: 32, value: v6 & 0xffffffffn };
  return { bits: 128, value: v6 };
}

function mask(bits: number, prefix: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return all ^ ((1n << BigInt(bits - prefix)) - 1n);
}

/** The network of `value` with `prefix` bits kept. */
export function networkOf(addr: IpAddress, prefix: number): IpNetwork {
  return { base: { bits: addr.bits, value: addr.value & mask(addr.bits, prefix) }, prefix };
}

/** Parses `addr/prefix`; undefined when Go's net.ParseCIDR would fail. */
export function parseCidr(text: string): IpNetwork | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) return undefined;
  const addrText = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  const v4 = parseIPv4(addrText);
  if (v4 !== undefined) return prefix > 32 ? undefined : networkOf({ bits: 32, value: v4 }, prefix);
  const v6 = addrText.includes(":") ? parseIPv6(addrText) : undefined;
  if (v6 === undefined || prefix > 128) return undefined;
  if (v6 >> 32n === MAPPED_PREFIX >> 32n) {
    // Go reads an IPv4-mapped network as IPv4 with the low 32 bits of its mask.
    return networkOf({ bits: 32, value: v6 & 0xffffffffn }, Math.max(0, prefix - 96));
  }
  return networkOf({ bits: 128, value: v6 }, prefix);
}

/** True when the network holds the address (families must agree, as in Go). */
export function networkContains(net: IpNetwork, addr: IpAddress): boolean {
  if (net.base.bits !== addr.bits) return false;
  return (addr.value & mask(addr.bits, net.prefix)) === net.base.value;
}

/** The last address of a network. */
export function lastAddress(net: IpNetwork): IpAddress {
  const hostBits = (1n << BigInt(net.base.bits - net.prefix)) - 1n;
  return { bits: net.base.bits, value: net.base.value | hostBits };
}

function formatIPv6(value: bigint): string {
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  // RFC 5952: compress the longest run (two groups or more) of zeros, the first one on ties.
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) [bestStart, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLen).join(":")}`;
}

/** Go's text form of an address. */
export function formatIp(addr: IpAddress): string {
  if (addr.bits === 32) {
    const v = addr.value;
    return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join(".");
  }
  return formatIPv6(addr.value);
}

/** Go's text form of a network, `base/prefix`. */
export function formatNetwork(net: IpNetwork): string {
  return `${formatIp(net.base)}/${net.prefix}`;
}
