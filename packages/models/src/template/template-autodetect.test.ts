// Tests of choosing an Ollama template by edit distance of the Jinja chat template.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { loadTemplateIndex } from "../template-index.js";
import { boundedDistance, closestTemplateName, detectTemplate } from "./template-autodetect.js";

const runes = (s: string) => Array.from(s, (c) => c.codePointAt(0) as number);

/** The textbook O(n·m) distance, to compare the banded one with. */
function fullDistance(a: string, b: string): number {
  const x = runes(a);
  const y = runes(b);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(
        (prev[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1),
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
      );
    prev = cur;
  }
  return prev[y.length] as number;
}

const entry = (name: string, template: string) => ({ name, template, runes: runes(template) });

describe("template detection by edit distance", () => {
  it("computes the exact distance up to the bound, and bound + 1 past it", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let t = 0; t < 500; t++) {
      const word = () => Array.from({ length: rand(25) }, () => "abc"[rand(3)]).join("");
      const [a, b, bound] = [word(), word(), rand(12)];
      const d = fullDistance(a, b);
      assert.equal(
        boundedDistance(runes(a), runes(b), bound),
        d <= bound ? d : bound + 1,
        `${a} ${b} ${bound}`,
      );
    }
  });

  it("counts code points, as Go's levenshtein counts runes", () => {
    assert.equal(boundedDistance(runes("a😀b"), runes("ab"), 5), 1);
  });

  it("picks the nearest entry under 100 edits, the first one on a tie, or none", () => {
    const base = "{% for m in messages %}{{ m.content }}{% endfor %}".repeat(4);
    const index = [
      entry("first", `${base}X`),
      entry("second", `${base}Y`),
      entry("far", "x".repeat(50)),
    ];
    assert.equal(closestTemplateName(base, index), "first");
    assert.equal(closestTemplateName(`${base}Y`, index), "second");
    assert.equal(closestTemplateName(`${base}${"z".repeat(98)}`, index), "first");
    assert.equal(closestTemplateName(`${base}${"z".repeat(100)}`, index), undefined);
  });

  it("reads the folder's index, template and parameters, and refuses a malformed index", async () => {
    const dir = await mkdtemp(join(tmpdir(), "llmsrv-templates-"));
    try {
      await writeFile(
        join(dir, "index.json"),
        JSON.stringify([{ template: "{{ jinja }}", name: "t" }]),
      );
      await writeFile(join(dir, "t.gotmpl"), "{{ .Prompt }}\r\n");
      await writeFile(join(dir, "t.json"), JSON.stringify({ stop: ["</s>"] }));
      assert.deepEqual(detectTemplate(dir, "{{ jinja }}"), {
        name: "t",
        template: "{{ .Prompt }}\n",
        parameters: { stop: ["</s>"] },
      });
      const bad = await mkdtemp(join(tmpdir(), "llmsrv-templates-"));
      await writeFile(join(bad, "index.json"), JSON.stringify({ not: "a list" }));
      assert.throws(() => loadTemplateIndex(bad), /must be a JSON array/);
      await rm(bad, { recursive: true });
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
