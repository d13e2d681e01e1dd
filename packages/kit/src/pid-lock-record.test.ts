import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { judgeRecord, newRecord, parseRecord, unreadableGraceMs } from "./pid-lock-record.js";
import { ownIdentity } from "./process-identity.js";

const old = () => Date.now() - 60 * unreadableGraceMs;

describe("pid lock records", () => {
  it("writes pid, start time, boot id and a nonce that differs per record", () => {
    const first = newRecord();
    const parts = first.trimEnd().split(" ");
    assert.equal(parts.length, 4, first);
    assert.equal(parts[0], String(process.pid));
    const me = ownIdentity();
    assert.equal(parts[1], me.start ?? "-");
    assert.equal(parts[2], me.boot ?? "-");
    assert.match(parts[3] ?? "", /^[0-9a-f]{16}$/);
    assert.notEqual(newRecord(), first);
    assert.deepEqual(parseRecord(first), { kind: "full", who: me });
  });

  it("reads an older version's bare pid, and nothing else as a pid", () => {
    assert.deepEqual(parseRecord("4242\n"), { kind: "bare", pid: 4242 });
    for (const text of ["", "\n", "abc", "0", "-3", "12.5", "1 2 3", "1 2 3 zz", "1 2 3 4 5"]) {
      assert.deepEqual(parseRecord(text), { kind: "unreadable" }, JSON.stringify(text));
    }
    assert.deepEqual(parseRecord("7 - - 0a"), { kind: "full", who: { pid: 7 } });
  });

  it("lets an unreadable file settle for a moment, then counts it stale", () => {
    assert.deepEqual(judgeRecord("", Date.now()), { kind: "settling" });
    assert.deepEqual(judgeRecord("", old()), { kind: "stale" });
    assert.deepEqual(judgeRecord("not a pid", old()), { kind: "stale" });
    // A clock stepped back by far does not keep a crashed file young.
    assert.deepEqual(judgeRecord("", Date.now() + 60 * unreadableGraceMs), { kind: "stale" });
  });

  it("holds for this process's own record, and a bare pid of ours is stale", () => {
    assert.deepEqual(judgeRecord(newRecord(), old()), { kind: "held", holder: process.pid });
    assert.deepEqual(judgeRecord(`${process.pid}\n`, old()), { kind: "stale" });
  });
});
