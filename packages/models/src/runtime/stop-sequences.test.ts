// Tests of stop sequences: held-back partial matches and cuts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StopSequenceFilter } from "./stop-sequences.js";

function run(stops: string[], pieces: string[]): { out: string[]; stopped: boolean } {
  const out: string[] = [];
  const f = new StopSequenceFilter(stops, (t) => out.push(t));
  for (const p of pieces) if (f.push(p)) break;
  if (!f.stopped) f.flush();
  return { out, stopped: f.stopped };
}

describe("stop sequences on decoded text", () => {
  it("passes text through at once when nothing could start a stop sequence", () => {
    assert.deepEqual(run(["END"], [" a", " b"]).out, [" a", " b"]);
  });

  it("holds back a possible start and releases it when the match fails", () => {
    const r = run(["girl scout"], [" little", " g", "ir", "l", " named"]);
    assert.deepEqual(r.out, [" little", " girl named"]);
    assert.equal(r.stopped, false);
  });

  it("cuts before a stop sequence spanning pieces, inside a piece", () => {
    const r = run(["irl na"], [" little", " g", "ir", "l", " named"]);
    assert.deepEqual(r.out, [" little", " g"]);
    assert.equal(r.stopped, true);
  });

  it("uses the first stop sequence of the list that is present", () => {
    assert.deepEqual(run(["b", "a"], ["xab"]).out, ["xa"]);
  });

  it("releases a pending partial match at the end of generation", () => {
    assert.deepEqual(run(["Lily!"], [" named", " Lily"]).out, [" named", " Lily"]);
  });
});
