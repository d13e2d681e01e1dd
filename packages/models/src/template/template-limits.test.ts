// Tests of the template bounds: output size, loop work and nesting.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Template } from "@huggingface/jinja";
import { LlmsrvError } from "../errors.js";
import { renderChatTemplate } from "./chat-template.js";
import { renderGoTemplate } from "./go-template.js";
import { TemplateLimitError } from "./template-budget.js";
import { checkChatTemplate, checkGoTemplate } from "./template-check.js";

const MESSAGES = Array.from({ length: 30 }, (_, i) => ({ Role: "user", Content: `m${i}` }));
const JINJA_MESSAGES = MESSAGES.map((m) => ({ role: m.Role, content: m.Content }));

/** `depth` ranges over .Messages nested in each other: messages^depth iterations. */
function nestedRanges(depth: number): string {
  return `${"{{ range $.Messages }}".repeat(depth)}{{ .Content }}${"{{ end }}".repeat(depth)}`;
}

function nestedFors(depth: number): string {
  const loops = Array.from({ length: depth }, (_, i) => `{% for m${i} in messages %}`).join("");
  return `${loops}{{ m${depth - 1}.content }}${"{% endfor %}".repeat(depth)}`;
}

/** Asserts that `render` stops with a limit error (a 400) whose message matches `pattern`. */
function assertLimit(render: () => unknown, pattern: RegExp): void {
  assert.throws(render, (e: unknown) => {
    assert.ok(e instanceof TemplateLimitError, `a limit error, got ${String(e)}`);
    assert.equal(e.code, "bad_request");
    assert.match(e.message, pattern);
    return true;
  });
}

describe("Go template limits", () => {
  it("stops a template that loops too much at the step limit", () => {
    assertLimit(
      () => renderGoTemplate(nestedRanges(5), { Messages: MESSAGES }),
      /^template: more than 1000000 steps/,
    );
    assertLimit(() => renderGoTemplate("{{ range 1000000000000 }}x{{ end }}", {}), /steps/);
  });

  it("stops a template that builds huge text at the text limit", () => {
    const doubling = '{{ $x := "ab" }}{{ range 100 }}{{ $x = print $x $x }}{{ end }}{{ $x }}';
    assertLimit(() => renderGoTemplate(doubling, {}), /more than 33554432 characters/);
    const wide = `{{ range 900000 }}${"y".repeat(1000)}{{ end }}`;
    assertLimit(() => renderGoTemplate(wide, {}), /characters/);
  });

  it("refuses nesting deeper than the depth limit, in blocks and in parentheses", () => {
    const blocks = `${"{{ if 1 }}".repeat(5000)}${"{{ end }}".repeat(5000)}`;
    assertLimit(() => renderGoTemplate(blocks, {}), /nesting deeper than 500 levels/);
    const parens = `{{ ${"(".repeat(5000)}1${")".repeat(5000)} }}`;
    assertLimit(() => renderGoTemplate(parens, {}), /nesting/);
  });

  it("applies the limits a caller passes, and leaves templates within them untouched", () => {
    const limits = { maxSteps: 500, maxTextChars: 1000, maxDepth: 10 };
    assertLimit(
      () => renderGoTemplate(nestedRanges(2), { Messages: MESSAGES }, limits),
      /more than 500 steps/,
    );
    assertLimit(() => renderGoTemplate("{{ 1 }}".repeat(51), {}, limits), /more than 50 steps/);
    const out = renderGoTemplate(nestedRanges(2), { Messages: MESSAGES.slice(0, 2) }, limits);
    assert.equal(out, "m0m1m0m1");
  });
});

describe("Jinja chat template limits", () => {
  it("stops a template that loops too much at the step limit", () => {
    const limits = { maxSteps: 20_000, maxTextChars: 1 << 20, maxDepth: 100 };
    assertLimit(
      () => renderChatTemplate(nestedFors(4), JINJA_MESSAGES, {}, limits),
      /more than 20000 steps/,
    );
    assertLimit(
      () => renderChatTemplate("{% for i in range(1000000000000) %}x{% endfor %}", []),
      /more than 250000 steps/,
    );
  });

  it("stops strings and lists that double at the text limit", () => {
    for (const start of ["'ab'", "[1]"]) {
      const t = `{% set ns = namespace(x=${start}) %}{% for i in range(60) %}{% set ns.x = ns.x + ns.x %}{% endfor %}{{ ns.x | length }}`;
      assertLimit(() => renderChatTemplate(t, []), /characters of text/);
    }
  });

  it("stops recursion through macros at the depth limit", () => {
    const t = "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}";
    assertLimit(() => renderChatTemplate(t, []), /nesting deeper than 500 levels/);
  });

  it("keeps the library's globals: range, namespace, raise_exception, strftime_now", () => {
    const t =
      "{% set ns = namespace(n=0) %}{% for i in range(1, 7, 2) %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }} {{ strftime_now('%Y') | length }} {{ True }}";
    assert.equal(renderChatTemplate(t, []), new Template(t).render({ messages: [] }));
    assert.equal(renderChatTemplate(t, []), "9 4 true");
    assert.throws(() => renderChatTemplate("{{ raise_exception('no') }}", []), /chat template: no/);
  });
});

describe("templates checked at create", () => {
  it("refuses a Go template that loops too much on a sample conversation, or does not parse", () => {
    assertLimit(() => checkGoTemplate(nestedRanges(8)), /steps/);
    assert.throws(
      () => checkGoTemplate("{{ if .System }}"),
      (e: unknown) => e instanceof LlmsrvError && e.code === "bad_request" && /end/.test(e.message),
    );
  });

  it("accepts ordinary templates, even ones that fail on the sample data itself", () => {
    checkGoTemplate("{{ range .Messages }}<{{ .Role }}>{{ .Content }}{{ end }}<assistant>");
    checkGoTemplate("{{ if .System }}{{ .System }} {{ end }}Q: {{ .Prompt }} A:");
    checkGoTemplate("{{ len 3 }}");
    checkChatTemplate("{% for m in messages %}{{ m.content }}{% endfor %}");
  });

  it("refuses a Jinja chat template that loops too much on a sample conversation", () => {
    assertLimit(() => checkChatTemplate(nestedFors(7)), /steps/);
  });
});
