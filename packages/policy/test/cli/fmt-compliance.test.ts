/**
 * `rego fmt` over every module of OPA's compliance suite: formatting is idempotent and the
 * formatted module parses to the same tree (locations aside).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { skipUnlessProvided } from "@quintet/kit/testing";
import { formatSource } from "../../src/format/format.js";
import { parseModule } from "../../src/syntax/module-parser.js";
import { loadCases } from "../compliance/cases.js";
import { moduleShape } from "./ast-shape.js";

const here = dirname(fileURLToPath(import.meta.url));
const suiteDir = resolve(here, "../../../../../../shared/opa-compliance");

/** The modules of the suite that parse (some cases test parse errors on purpose). */
function suiteModules(): { note: string; source: string }[] {
  const out: { note: string; source: string }[] = [];
  for (const lc of loadCases([suiteDir])) {
    (lc.case.modules ?? []).forEach((source, i) => {
      try {
        parseModule("m.rego", source);
        out.push({ note: `${lc.case.note}#${i}`, source });
      } catch {
        // not a module this check is about
      }
    });
  }
  return out;
}

test("formatting every compliance module is idempotent and keeps its tree", {
  skip: skipUnlessProvided(
    existsSync(suiteDir) ? undefined : `compliance suite not found at ${suiteDir}`,
  ),
  timeout: 300_000,
}, () => {
  const modules = suiteModules();
  assert.ok(modules.length > 1000, `only ${modules.length} modules found`);
  const failures: string[] = [];
  for (const { note, source } of modules) {
    try {
      const once = formatSource("m.rego", source);
      const twice = formatSource("m.rego", once);
      if (once !== twice) failures.push(`${note}: not idempotent\n${once}\n---\n${twice}`);
      const before = moduleShape(parseModule("m.rego", source));
      const after = moduleShape(parseModule("m.rego", once));
      if (JSON.stringify(before) !== JSON.stringify(after))
        failures.push(`${note}: tree changed\n${source}\n---\n${once}`);
    } catch (e) {
      failures.push(`${note}: ${(e as Error).message}\n${source}`);
    }
  }
  assert.equal(
    failures.length,
    0,
    `${failures.length} of ${modules.length}:\n${failures.slice(0, 5).join("\n\n")}`,
  );
});

/** `source` with a comment after every non-blank line, or above every line. */
function commented(source: string, where: "after" | "above"): string {
  return source
    .split("\n")
    .map((l, i) => (where === "above" ? `# c${i}\n${l}` : l.trim() ? `${l} # c${i}` : l))
    .join("\n");
}

for (const where of ["after", "above"] as const) {
  test(`formatting keeps every comment written ${where} each line of the compliance modules`, {
    skip: skipUnlessProvided(
      existsSync(suiteDir) ? undefined : `compliance suite not found at ${suiteDir}`,
    ),
    timeout: 300_000,
  }, () => {
    const failures: string[] = [];
    let checked = 0;
    for (const { note, source } of suiteModules()) {
      const withComments = commented(source, where);
      let shape: string;
      try {
        shape = JSON.stringify(moduleShape(parseModule("m.rego", withComments)));
      } catch {
        continue; // a comment inside a raw string or template: not this module's layout
      }
      if (shape !== JSON.stringify(moduleShape(parseModule("m.rego", source)))) continue;
      checked++;
      try {
        const once = formatSource("m.rego", withComments);
        const lost = [...withComments.matchAll(/# (c\d+)/g)]
          .map((m) => m[1] as string)
          .filter((c) => !new RegExp(`#.*\\b${c}\\b`).test(once));
        if (lost.length > 0) failures.push(`${note}: lost ${lost.join(", ")}\n${once}`);
        if (formatSource("m.rego", once) !== once)
          failures.push(`${note}: not idempotent\n${once}`);
        if (JSON.stringify(moduleShape(parseModule("m.rego", once))) !== shape)
          failures.push(`${note}: tree changed\n${once}`);
      } catch (e) {
        failures.push(`${note}: ${(e as Error).message}`);
      }
    }
    assert.ok(checked > 1000, `only ${checked} modules checked`);
    assert.equal(failures.length, 0, failures.slice(0, 5).join("\n\n"));
  });
}
