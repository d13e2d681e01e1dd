/**
 * A minimal DER (ASN.1) reader: enough to walk X.509 certificates and certificate requests.
 */

export interface DerNode {
  /** Tag class: 0 universal, 1 application, 2 context-specific, 3 private. */
  cls: number;
  tag: number;
  constructed: boolean;
  /** The whole encoding (header and content). */
  raw: Buffer;
  content: Buffer;
}

/** Thrown for malformed DER; callers translate it into Go's wording. */
export class DerError extends Error {}

/** The node starting at `offset` of `buf`. */
export function readNode(buf: Buffer, offset = 0): DerNode {
  if (offset + 2 > buf.length) throw new DerError("truncated tag or length");
  const first = buf[offset] as number;
  let tag = first & 0x1f;
  let pos = offset + 1;
  if (tag === 0x1f) {
    tag = 0;
    for (;;) {
      const b = buf[pos++];
      if (b === undefined) throw new DerError("truncated tag");
      tag = (tag << 7) | (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
  }
  let len = buf[pos++];
  if (len === undefined) throw new DerError("truncated length");
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new DerError("unsupported length");
    len = 0;
    for (let i = 0; i < n; i++) {
      const b = buf[pos++];
      if (b === undefined) throw new DerError("truncated length");
      len = len * 256 + b;
    }
  }
  const end = pos + len;
  if (end > buf.length) throw new DerError("data truncated");
  return {
    cls: first >> 6,
    tag,
    constructed: (first & 0x20) !== 0,
    raw: buf.subarray(offset, end),
    content: buf.subarray(pos, end),
  };
}

/** The nodes inside a constructed node, in order. */
export function children(node: DerNode): DerNode[] {
  const out: DerNode[] = [];
  let offset = 0;
  while (offset < node.content.length) {
    const child = readNode(node.content, offset);
    out.push(child);
    offset += child.raw.length;
  }
  return out;
}

/** Splits a buffer holding several concatenated DER values. */
export function splitConcatenated(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const node = readNode(buf, offset);
    out.push(node.raw);
    offset += node.raw.length;
  }
  return out;
}

/** Dotted OBJECT IDENTIFIER components. */
export function oidComponents(node: DerNode): number[] {
  const c = node.content;
  if (c.length === 0) throw new DerError("empty OID");
  const first = c[0] as number;
  const out = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  let v = 0;
  for (let i = 1; i < c.length; i++) {
    const b = c[i] as number;
    v = v * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      out.push(v);
      v = 0;
    }
  }
  return out;
}

export const oidString = (node: DerNode) => oidComponents(node).join(".");

/** An INTEGER as a bigint (two's complement). */
export function integerValue(node: DerNode): bigint {
  const c = node.content;
  if (c.length === 0) return 0n;
  let v = BigInt(`0x${c.toString("hex")}`);
  if ((c[0] as number) & 0x80) v -= 1n << BigInt(c.length * 8);
  return v;
}

/** Text of the string types used in names and general names. */
export function stringValue(node: DerNode): string {
  if (node.tag === 30) {
    let s = "";
    for (let i = 0; i + 1 < node.content.length; i += 2)
      s += String.fromCharCode(node.content.readUInt16BE(i));
    return s;
  }
  return node.content.toString(node.tag === 12 ? "utf8" : "latin1");
}

/** UTCTime or GeneralizedTime as an RFC 3339 string in UTC. */
export function timeValue(node: DerNode): string {
  const s = node.content.toString("latin1");
  const m =
    node.tag === 23
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s)
      : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (!m) throw new DerError(`bad time ${s}`);
  let year = m[1] as string;
  if (node.tag === 23) year = `${Number(year) < 50 ? "20" : "19"}${year}`;
  return `${year}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
}

/** Bits of a BIT STRING, most significant first. */
export function bitAt(node: DerNode, i: number): boolean {
  const byte = node.content[1 + Math.floor(i / 8)];
  return byte !== undefined && (byte & (0x80 >> (i % 8))) !== 0;
}
