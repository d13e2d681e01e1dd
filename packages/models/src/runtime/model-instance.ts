// One model in memory as the scheduler holds it: its free slots, waiters and keep-alive.
import type { StoredModel } from "../store/stored-model.js";
import type { LoadedModel } from "./model-runner.js";

/** A date far in the future, shown for "forever" keep-alive. */
const FOREVER = new Date("2318-11-21T00:00:00Z");

/** A request waiting for one of a loaded model's slots. */
export interface Waiter {
  resolve(slot: number): void;
  reject(e: unknown): void;
}

/** One model in memory with its slots and keep-alive timer. */
export class ModelInstance {
  readonly freeSlots: number[];
  readonly waiters: Waiter[] = [];
  active = 0;
  lastUsed = Date.now();
  timer: NodeJS.Timeout | undefined;
  private idleResolvers: Array<() => void> = [];

  constructor(
    readonly model: StoredModel,
    readonly loaded: LoadedModel,
    public keepAliveMs: number,
  ) {
    // Highest first: pop() takes the lowest (see returnSlot).
    this.freeSlots = Array.from({ length: loaded.spec.sequences }, (_, i) => i).reverse();
  }

  get idle(): boolean {
    return this.active === 0 && this.waiters.length === 0;
  }

  /**
   * Puts a slot back so that `freeSlots.pop()` takes the lowest free one: the slots in use
   * then stay numbered 0, 1, 2… and llama.cpp decodes their tokens as one micro-batch (it
   * groups sequences whose ids follow each other; see decode-pacer.ts).
   */
  returnSlot(slot: number): void {
    const at = this.freeSlots.findIndex((s) => s < slot);
    this.freeSlots.splice(at < 0 ? this.freeSlots.length : at, 0, slot);
  }

  whenIdle(): Promise<void> {
    return this.idle ? Promise.resolve() : new Promise((r) => this.idleResolvers.push(r));
  }

  notifyIdle(): void {
    const resolvers = this.idleResolvers;
    this.idleResolvers = [];
    for (const r of resolvers) r();
  }

  expiresAt(): Date {
    if (!Number.isFinite(this.keepAliveMs)) return FOREVER;
    const base = this.active > 0 ? Date.now() : this.lastUsed;
    return new Date(base + this.keepAliveMs);
  }
}
