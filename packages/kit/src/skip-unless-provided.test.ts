import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { requireAll, requireAllVariable } from "./skip-unless-provided.js";

const dir = mkdtempSync(join(tmpdir(), "kit-skip-"));
const fixture = join(dir, "fixture.test.mjs");
writeFileSync(
  fixture,
  `import { describe, it } from "node:test";
import { skipUnlessProvided } from ${JSON.stringify(new URL("./skip-unless-provided.js", import.meta.url).href)};
describe("needs the thing", { skip: skipUnlessProvided("the thing is absent at /nowhere") }, () => {
  it("uses it", () => {});
});
it("needs what is here", { skip: skipUnlessProvided(undefined) }, () => {});
`,
);

/** Runs the fixture file under node --test with the TAP reporter and `value` for the variable. */
function runFixture(value: string | undefined) {
  const env = { ...process.env };
  // Under a test runner the child would report to it in its own format instead of TAP.
  delete env.NODE_TEST_CONTEXT;
  delete env[requireAllVariable];
  if (value !== undefined) env[requireAllVariable] = value;
  return spawnSync(process.execPath, ["--test", "--test-reporter=tap", fixture], {
    encoding: "utf8",
    env,
  });
}

describe("skipUnlessProvided", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("skips with the reason and passes the run when the variable is unset or 0", () => {
    for (const value of [undefined, "0"]) {
      const result = runFixture(value);
      assert.equal(result.status, 0, result.stdout);
      assert.match(result.stdout, /ok 1 - needs the thing # SKIP the thing is absent at \/nowhere/);
      assert.match(result.stdout, /ok 2 - needs what is here\n/);
      assert.match(result.stdout, /# fail 0\n/);
    }
  });

  it("fails the run with the reason under QUINTET_REQUIRE_ALL=1", () => {
    const result = runFixture("1");
    assert.equal(result.status, 1, result.stdout);
    assert.match(
      result.stdout,
      /not ok 1 - required by QUINTET_REQUIRE_ALL=1: the thing is absent at \/nowhere/,
    );
    assert.match(
      result.stdout,
      /the thing is absent at \/nowhere \(QUINTET_REQUIRE_ALL=1: this run must not skip for want of it\)/,
    );
    assert.match(result.stdout, /ok 3 - needs what is here\n/);
    assert.match(result.stdout, /# fail 1\n/);
  });

  it("reads the variable strictly and names a bad value", () => {
    assert.equal(requireAll({}), false);
    assert.equal(requireAll({ QUINTET_REQUIRE_ALL: "0" }), false);
    assert.equal(requireAll({ QUINTET_REQUIRE_ALL: "1" }), true);
    assert.throws(() => requireAll({ QUINTET_REQUIRE_ALL: "yes" }), {
      message: 'QUINTET_REQUIRE_ALL must be 1 or 0, not "yes"',
    });
  });
});
