import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";

const SCRIPT = fileURLToPath(new URL("../../../../scripts/ensure-chromium.sh", import.meta.url));

function run(env: Record<string, string>, asNobody = false) {
  const command = asNobody
    ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "bash", SCRIPT]
    : ["bash", SCRIPT];
  return spawnSync(command[0] ?? "bash", command.slice(1), {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
}

const canDropRoot = process.getuid?.() === 0 && existsSync("/usr/bin/setpriv");

describe("scripts/ensure-chromium.sh", () => {
  it("exits 0 at once when the browser is already there", () => {
    const result = run({ NOTES_CHROMIUM: process.execPath });
    assert.equal(result.status, 0);
    assert.equal(result.stderr, "");
  });

  it("exits 1 with the reason when the browser is missing and it is not root", {
    skip: skipUnlessProvided(
      canDropRoot ? undefined : "needs root and setpriv to run the script as nobody",
    ),
  }, () => {
    const result = run({ NOTES_CHROMIUM: "/nonexistent/chromium" }, true);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /\/nonexistent\/chromium is missing and we are not root/);
  });
});
