import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { didYouMean, quotedOrList, suggestionList } from "./suggestions.js";

describe("suggestions", () => {
  test("keep options within the edit threshold, closest first", () => {
    assert.deepEqual(suggestionList("nmae", ["name", "id", "nickname"]), ["name"]);
    assert.deepEqual(suggestionList("ID", ["id", "Id", "xid"]), ["id", "Id", "xid"]);
    assert.deepEqual(suggestionList("zzz", ["name"]), []);
  });

  test("list up to five quoted names with or", () => {
    assert.equal(quotedOrList(["a"]), '"a"');
    assert.equal(quotedOrList(["a", "b"]), '"a" or "b"');
    assert.equal(quotedOrList(["a", "b", "c", "d", "e", "f"]), '"a", "b", "c", "d", or "e"');
    assert.equal(didYouMean("Did you mean", "nmae", ["name"]), ' Did you mean "name"?');
    assert.equal(didYouMean("Did you mean", "zzz", ["name"]), "");
  });
});
