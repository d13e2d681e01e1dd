// Tests of the pull/push progress bars: a line per layer, redrawn in place on a terminal.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { barLine, ProgressBars } from "./progress-bars.js";

function capture(tty: boolean): { bars: ProgressBars; text: () => string } {
  let out = "";
  const bars = new ProgressBars({ write: (t: string) => (out += t) }, tty);
  return { bars, text: () => out };
}

const layer = (completed: number) => ({
  status: "pulling 0123456789ab",
  digest: "sha256:0123456789ab",
  total: 2_000_000,
  completed,
});

describe("pull and push progress bars", () => {
  it("draws percent, a 25-cell bar and the amount", () => {
    assert.equal(
      barLine({ status: "pulling 0123456789ab", total: 2_000_000, completed: 1_000_000 }),
      `pulling 0123456789ab:  50% ▕${"█".repeat(13)}${" ".repeat(12)}▏ 1.0 MB/2.0 MB`,
    );
    assert.equal(
      barLine({ status: "pushing 0123456789ab", total: 2_000_000, completed: 2_000_000 }),
      `pushing 0123456789ab: 100% ▕${"█".repeat(25)}▏ 2.0 MB`,
    );
  });

  it("prints one final line per layer and each status once when not on a terminal", () => {
    const { bars, text } = capture(false);
    bars.update({ status: "pulling manifest" });
    for (const n of [0, 500_000, 2_000_000, 2_000_000]) bars.update(layer(n));
    bars.update({ status: "verifying sha256 digest" });
    bars.update({ status: "verifying sha256 digest" });
    assert.equal(
      text(),
      `pulling manifest\n${barLine(layer(2_000_000))}\nverifying sha256 digest\n`,
    );
  });

  it("redraws the current layer in place on a terminal", () => {
    const { bars, text } = capture(true);
    bars.update(layer(0));
    bars.update(layer(1_000_000));
    bars.update({ status: "success" });
    assert.equal(
      text(),
      `\r${barLine(layer(0))}\x1b[K\r${barLine(layer(1_000_000))}\x1b[K\nsuccess\n`,
    );
  });
});
