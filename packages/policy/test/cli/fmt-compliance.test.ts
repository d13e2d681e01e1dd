/**
 * `rego fmt` over every module of OPA's compliance suite: formatting is idempotent and the
 * formatted module parses to the same tree (locations aside).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
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
  skip: existsSync(suiteDir) ? false : `compliance suite not found at ${suiteDir}`,
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
    `${failures.length} of ${modules.length}:\n${failures.slice(0, Number(process.env.FMT_SHOW ?? 5)).join("\n\n")}`,
  );
});
