/**
 * The ustar archive format, just enough for policy bundles: regular files written with
 * 512-byte headers (long names split into prefix and name), and read back, skipping
 * directories, links and extended headers.
 */

const BLOCK = 512;

/** One regular file of an archive. */
export interface TarEntry {
  name: string;
  content: Buffer;
}

function writeField(header: Buffer, offset: number, length: number, text: string): void {
  header.write(text.slice(0, length), offset, length, "utf8");
}

function octal(n: number, length: number): string {
  return `${n.toString(8).padStart(length - 1, "0")}\0`;
}

/** Splits a long path into ustar's prefix (≤155) and name (≤100) at a slash. */
function splitName(name: string): { prefix: string; name: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: "", name };
  for (let i = name.lastIndexOf("/"); i > 0; i = name.lastIndexOf("/", i - 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100)
      return { prefix, name: rest };
  }
  throw new Error(`path too long for a tar archive: ${name}`);
}

function header(entry: TarEntry, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  const { prefix, name } = splitName(entry.name);
  writeField(h, 0, 100, name);
  writeField(h, 100, 8, octal(0o644, 8));
  writeField(h, 108, 8, octal(0, 8));
  writeField(h, 116, 8, octal(0, 8));
  writeField(h, 124, 12, octal(entry.content.length, 12));
  writeField(h, 136, 12, octal(mtime, 12));
  h.fill(" ", 148, 156);
  writeField(h, 156, 1, "0");
  writeField(h, 257, 6, "ustar\0");
  writeField(h, 263, 2, "00");
  writeField(h, 345, 155, prefix);
  let sum = 0;
  for (const byte of h) sum += byte;
  writeField(h, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return h;
}

/** A tar archive of `entries` (not compressed). */
export function writeTar(entries: TarEntry[], mtime = Math.floor(Date.now() / 1000)): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e, mtime), e.content);
    const pad = (BLOCK - (e.content.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

function readString(buf: Buffer, offset: number, length: number): string {
  const raw = buf.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString("utf8");
}

/** The regular files of a tar archive; throws on a truncated or corrupt archive. */
export function readTar(archive: Buffer): TarEntry[] {
  const out: TarEntry[] = [];
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const h = archive.subarray(offset, offset + BLOCK);
    if (h.every((b) => b === 0)) break;
    const size = Number.parseInt(readString(h, 124, 12).trim() || "0", 8);
    if (!Number.isFinite(size) || size < 0) throw new Error("corrupt tar header");
    const type = String.fromCharCode(h[156] ?? 0);
    const prefix = readString(h, 345, 155);
    const name = readString(h, 0, 100);
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new Error("truncated tar archive");
    if (type === "0" || type === "\0") {
      out.push({
        name: prefix ? `${prefix}/${name}` : name,
        content: archive.subarray(start, start + size),
      });
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return out;
}
