import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";

const greetingModule = new URL("../src/greeting.js", import.meta.url).href;

/** Greets at a fixed UTC instant in a child process whose TZ is `zone`. */
function greetIn(zone: string, isoInstant: string): string {
  const script = `import(${JSON.stringify(greetingModule)}).then((m) => process.stdout.write(m.greetingFor("Ann", new Date(${JSON.stringify(isoInstant)}))))`;
  return execFileSync(process.execPath, ["-e", script], {
    env: { ...process.env, TZ: zone },
  }).toString();
}

describe("the server's local hour follows TZ", () => {
  it("greets the same instant differently in different zones", () => {
    const instant = "2026-01-15T00:30:00Z";
    assert.equal(greetIn("UTC", instant), "Hello, Ann, Good Morning !!!");
    assert.equal(greetIn("America/Los_Angeles", instant), "Hello, Ann, Good Evening !!!");
    assert.equal(greetIn("Asia/Kolkata", instant), "Hello, Ann, Good Morning !!!");
    assert.equal(greetIn("Asia/Tokyo", "2026-01-15T04:00:00Z"), "Hello, Ann, Good Afternoon !!!");
    assert.equal(greetIn("Pacific/Auckland", "2026-01-15T09:00:00Z"), "Hello, Ann, Good Night !!!");
  });
});
