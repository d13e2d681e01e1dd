/**
 * Where events wait for the next upload, in OPA's two kinds (`reporting.buffer_type`):
 * - "size" (default): events are compressed into chunks as they arrive; the buffer holds
 *   chunks and, past `buffer_size_limit_bytes` of compressed data, drops the oldest chunks.
 * - "event": the buffer holds up to `buffer_size_limit_events` events, dropping the oldest,
 *   and compresses them only when uploading.
 * A chunk whose upload failed is put back (`requeue`) and counts against the same limit, so
 * retrying never grows memory past it.
 */
import { ChunkEncoder } from "./chunk-encoder.js";

export interface UploadBuffer {
  /** Adds one event's JSON text. */
  push(eventJSON: string): void;
  /** Removes and returns everything held, as chunks ready to upload, oldest first. */
  drain(): Buffer[];
  /** Puts back a chunk whose upload failed. */
  requeue(chunk: Buffer): void;
}

/** Counters the buffers move; names are OPA's metric names. */
export interface BufferCounters {
  /** Chunks or events dropped because the buffer was full. */
  dropped(count: number): void;
  /** An event larger than the upload limit by itself. */
  encodingFailure(eventBytes: number, limit: number): void;
}

export class SizeBuffer implements UploadBuffer {
  private chunks: Buffer[] = [];
  private usage = 0;
  private readonly encoder: ChunkEncoder;

  constructor(
    uploadSizeLimitBytes: number,
    /** 0: no limit. */
    private readonly limitBytes: number,
    private readonly counters: BufferCounters,
  ) {
    this.encoder = new ChunkEncoder(uploadSizeLimitBytes, counters.encodingFailure);
  }

  push(eventJSON: string): void {
    for (const chunk of this.encoder.write(eventJSON)) this.store(chunk);
  }

  drain(): Buffer[] {
    for (const chunk of this.encoder.flush()) this.store(chunk);
    const out = this.chunks;
    this.chunks = [];
    this.usage = 0;
    return out;
  }

  requeue(chunk: Buffer): void {
    this.store(chunk);
  }

  private store(chunk: Buffer): void {
    let dropped = 0;
    // As OPA: oldest chunks go until the new one fits; a chunk larger than the limit still stays.
    while (
      this.limitBytes > 0 &&
      this.chunks.length > 0 &&
      this.usage + chunk.length > this.limitBytes
    ) {
      this.usage -= (this.chunks.shift() as Buffer).length;
      dropped++;
    }
    if (dropped > 0) this.counters.dropped(dropped);
    this.chunks.push(chunk);
    this.usage += chunk.length;
  }
}

type EventItem = { json: string } | { chunk: Buffer };

export class EventBuffer implements UploadBuffer {
  private items: EventItem[] = [];

  constructor(
    private readonly uploadSizeLimitBytes: number,
    private readonly limitEvents: number,
    private readonly counters: BufferCounters,
  ) {}

  push(eventJSON: string): void {
    this.add({ json: eventJSON });
  }

  drain(): Buffer[] {
    const items = this.items;
    this.items = [];
    const encoder = new ChunkEncoder(this.uploadSizeLimitBytes, this.counters.encodingFailure);
    const out: Buffer[] = [];
    for (const item of items) {
      if ("chunk" in item) out.push(...encoder.flush(), item.chunk);
      else out.push(...encoder.write(item.json));
    }
    out.push(...encoder.flush());
    return out;
  }

  requeue(chunk: Buffer): void {
    this.add({ chunk });
  }

  private add(item: EventItem): void {
    this.items.push(item);
    if (this.items.length > this.limitEvents) {
      this.items.shift();
      this.counters.dropped(1);
    }
  }
}
