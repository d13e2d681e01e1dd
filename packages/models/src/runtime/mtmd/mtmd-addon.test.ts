// When the built addon counts as outdated: a source file changed after it was linked.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { addonOutdated } from "./mtmd-addon.js";

describe("addonOutdated", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "mtmd-addon-test-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("is false while every source is older than the addon, true once one is newer", async () => {
    const src = join(dir, "src");
    const addon = join(dir, "mtmd-addon.node");
    await mkdir(src);
    await writeFile(join(src, "a.cpp"), "");
    await writeFile(join(src, "b.h"), "");
    await writeFile(addon, "");
    const at = (s: number) => new Date(1_700_000_000_000 + s * 1000);
    await utimes(join(src, "a.cpp"), at(0), at(0));
    await utimes(join(src, "b.h"), at(1), at(1));
    await utimes(addon, at(2), at(2));
    assert.equal(addonOutdated(addon, src), false);
    await utimes(join(src, "b.h"), at(3), at(3));
    assert.equal(addonOutdated(addon, src), true, "a changed header");
  });
});
