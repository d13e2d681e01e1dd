/** A seeded generator of inputs: the same seed gives the same inputs. */
import { SeededRandom } from "../fuzz/seeded-random.js";

/** The fuzzers' seeded source, with the choices the input generators make. */
export class Random extends SeededRandom {
  /** Sometimes leaves a field out, so that undefined paths are exercised too. */
  maybe<T>(x: T, pAbsent = 0.15): T | undefined {
    return this.next() < pAbsent ? undefined : x;
  }

  subset<T>(xs: readonly T[]): T[] {
    return xs.filter(() => this.next() < 0.5);
  }
}

/** An object without the fields that are undefined. */
export function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const USERS = ["alice", "bob", "carol", "dave", "root", "eve"];

export function rbacInput(r: Random): Record<string, unknown> {
  return defined({
    user: r.maybe(r.pick(USERS)),
    action: r.maybe(r.pick(["read", "write", "delete", "share"])),
    type: r.maybe(r.pick(["doc", "report"])),
  });
}

export function abacInput(r: Random): Record<string, unknown> {
  const attrs: Record<string, unknown> = {};
  for (const name of r.subset(["pii", "finance", "health"])) attrs[name] = { risk: r.int(10) };
  return defined({
    action: r.maybe(r.pick(["read", "write", "delete"])),
    subject: r.maybe(
      defined({
        clearance: r.maybe(r.int(5)),
        departments: r.maybe(r.subset(["eng", "hr", "sales"])),
      }),
      0.05,
    ),
    resource: r.maybe(
      defined({
        level: r.maybe(r.int(5)),
        department: r.maybe(r.pick(["eng", "hr", "sales"])),
        archived: r.maybe(r.pick([true, false]), 0.5),
        tags: r.maybe(r.subset(["public", "internal", "draft"])),
        attrs: r.maybe(attrs),
        cost: r.maybe(r.int(60)),
      }),
      0.05,
    ),
  });
}

export function filtersInput(r: Random): Record<string, unknown> {
  return defined({
    user: r.maybe(r.pick(USERS)),
    action: r.maybe(r.pick(["read", "write"])),
    resource: r.maybe(
      defined({
        owner: r.maybe(r.pick(USERS)),
        public: r.maybe(r.pick([true, false, "yes"])),
        team: r.maybe(r.pick(["red", "blue", "green"])),
      }),
      0.05,
    ),
  });
}

export function featuresInput(r: Random): Record<string, unknown> {
  return defined({
    user: r.maybe(r.pick(["alice", "bob", "mallory"])),
    owner: r.maybe(r.pick(["alice", "bob"])),
    score: r.maybe(r.int(11)),
    spend: r.maybe(r.pick([10, 60, 120, 99, 100])),
    tags: r.maybe(r.subset(["public", "draft", "internal", "secret"])),
  });
}

export function postsInput(r: Random): Record<string, unknown> {
  return defined({
    method: r.maybe(r.pick(["GET", "POST"]), 0.05),
    path: r.maybe(r.pick([["posts"], ["users"]]), 0.05),
    user: r.maybe(r.pick(["alice", "bob", "dave"])),
    clearance: r.maybe(r.int(4)),
  });
}
