/**
 * A strict decoder for GreetRequest. protobufjs, which proto-loader uses, is lenient where
 * the service must not be: it decodes invalid UTF-8 to U+FFFD (greeting "��A" for bytes
 * `ff fe 41`) and, reading from a Buffer, clamps a string that runs past the end of the
 * message (`0a 05 41` greets "A"). A deserializer that throws makes grpc-js answer INTERNAL,
 * so this one never throws: a bad message becomes `problem`, which the handler answers with
 * INVALID_ARGUMENT.
 */

export interface DecodedGreetRequest {
  name: string;
  /** Why the message cannot be read; the handler refuses the call when set. */
  problem?: string;
}

/** Field number of `name` in proto/unary.proto. */
const NAME_FIELD = 1;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

class Truncated extends Error {}

/** Reads protobuf wire format from `bytes`, throwing Truncated when it runs past the end. */
class WireReader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  /** A base-128 varint of at most 10 bytes, as a number (exact up to 2^53; enough here). */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw new Truncated();
      const byte = this.bytes[this.pos++] as number;
      value += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return value;
      scale *= 128;
    }
    throw new Error("a varint is longer than 10 bytes");
  }

  take(length: number): Uint8Array {
    if (length > this.bytes.length - this.pos) throw new Truncated();
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return slice;
  }
}

/** Skips a field of another number, as proto3 requires for unknown fields. */
function skipField(reader: WireReader, wireType: number): void {
  switch (wireType) {
    case 0:
      reader.varint();
      return;
    case 1:
      reader.take(8);
      return;
    case 2:
      reader.take(reader.varint());
      return;
    case 5:
      reader.take(4);
      return;
    default:
      // Groups (3, 4) are proto2-only and long deprecated; 6 and 7 do not exist.
      throw new Error(`unsupported wire type ${wireType}`);
  }
}

function decodeFields(bytes: Uint8Array): DecodedGreetRequest {
  const reader = new WireReader(bytes);
  let name = "";
  while (!reader.done) {
    const tag = reader.varint();
    const field = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (field === 0) throw new Error("field number 0");
    if (field !== NAME_FIELD) {
      skipField(reader, wireType);
      continue;
    }
    if (wireType !== 2) throw new Error(`field name has wire type ${wireType}, not 2`);
    const raw = reader.take(reader.varint());
    try {
      // The last occurrence wins, as in every protobuf parser.
      name = utf8.decode(raw);
    } catch {
      return { name: "", problem: "name is not valid UTF-8" };
    }
  }
  return { name };
}

/** Decodes the bytes of one GreetRequest; never throws. */
export function decodeGreetRequest(bytes: Uint8Array): DecodedGreetRequest {
  try {
    return decodeFields(bytes);
  } catch (error) {
    if (error instanceof Truncated) {
      return { name: "", problem: "request message is truncated" };
    }
    return { name: "", problem: `request message is malformed: ${(error as Error).message}` };
  }
}
