import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDraftStore } from "./draft-store.js";

const idOf = (setCookie: string) => setCookie.split(";")[0] as string;

describe("createDraftStore", () => {
  it("hands a draft back once, to its owner in the browser that holds its id", () => {
    const store = createDraftStore({ maxAgeSeconds: 60, maxDrafts: 10 });
    const cookie = idOf(store.keep("ann", "note", false));
    assert.equal(store.waiting(cookie), true);
    assert.deepEqual(store.take(cookie, "bob", false)?.body, undefined);
    assert.deepEqual(store.take("notes_draft=guessed", "ann", false)?.body, undefined);
    assert.equal(store.take(undefined, "ann", false), undefined);
    assert.equal(store.take(cookie, "ann", true)?.body, "note");
    assert.equal(store.take(cookie, "ann", false)?.body, undefined);
    assert.equal(store.waiting(cookie), false);
  });

  it("keeps one draft per user: a newer one replaces the older", () => {
    const store = createDraftStore({ maxAgeSeconds: 60, maxDrafts: 10 });
    const first = idOf(store.keep("ann", "first", false));
    const second = idOf(store.keep("ann", "second", false));
    assert.equal(store.take(first, "ann", false)?.body, undefined);
    assert.equal(store.take(second, "ann", false)?.body, "second");
  });

  it("drops the oldest draft beyond maxDrafts, and drafts past their age", () => {
    let now = 0;
    const store = createDraftStore({ maxAgeSeconds: 60, maxDrafts: 2, now: () => now });
    const a = idOf(store.keep("a", "A", false));
    const b = idOf(store.keep("b", "B", false));
    const c = idOf(store.keep("c", "C", false));
    assert.equal(store.waiting(a), false);
    assert.equal(store.take(b, "b", false)?.body, "B");
    now = 60_000;
    assert.equal(store.take(c, "c", false)?.body, undefined);
  });

  it("keeps nothing with maxDrafts 0", () => {
    const store = createDraftStore({ maxAgeSeconds: 60, maxDrafts: 0 });
    assert.equal(store.enabled, false);
  });
});
