// Tests of Jinja and Go template rendering and tool-call extraction.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderChatTemplate } from "./chat-template.js";
import { renderGoTemplate } from "./go-template.js";
import { extractToolCalls } from "./tool-calls.js";

describe("Go template subset", () => {
  it("renders fields, conditionals with else, ranges and trim markers", () => {
    const t =
      "{{- if .System }}<s>{{ .System }}</s>{{ else }}none{{ end }}\n{{- range .Messages }} [{{ .Role }}:{{ .Content }}]{{ end }} {{ .Prompt -}}  !";
    const out = renderGoTemplate(t, {
      System: "sys",
      Prompt: "p",
      Messages: [
        { Role: "user", Content: "a" },
        { Role: "assistant", Content: "b" },
      ],
    });
    assert.equal(out, "<s>sys</s> [user:a] [assistant:b] p!");
    assert.equal(
      renderGoTemplate("{{ if .System }}x{{ else if .Prompt }}y{{ end }}", { Prompt: "p" }),
      "y",
    );
  });

  it("reports unknown functions, undefined variables, unclosed blocks and missing templates", () => {
    assert.throws(() => renderGoTemplate("{{ if .X }}open", {}), /missing \{\{ end \}\}/);
    assert.throws(
      () => renderGoTemplate('\n{{ sprintf "%s" .X }}', {}),
      /template: :2: function "sprintf" not defined/,
    );
    assert.throws(() => renderGoTemplate("{{ $nope }}", {}), /undefined variable "\$nope"/);
    assert.throws(() => renderGoTemplate('{{ template "x" }}', {}), /no such template "x"/);
  });

  it("renders a llama3-style template with variables, len, slice and eq", () => {
    const t = [
      "{{- if or .System .Tools }}<sys>{{ .System }}</sys>{{ end }}",
      "{{- range $i, $_ := .Messages }}",
      "{{- $last := eq (len (slice $.Messages $i)) 1 }}",
      "<{{ .Role }}>{{ .Content }}{{ if $last }}<assistant>{{ end }}",
      "{{- end }}",
    ].join("");
    const messages = [
      { Role: "user", Content: "hi" },
      { Role: "assistant", Content: "yo" },
      { Role: "user", Content: "q" },
    ];
    assert.equal(
      renderGoTemplate(t, { System: "S", Messages: messages }),
      "<sys>S</sys><user>hi<assistant>yo<user>q<assistant>",
    );
  });

  it("assigns to an outer variable from inside range and if, as Go scoping does", () => {
    const t =
      '{{- $lastUser := -1 }}{{- range $idx, $msg := .Messages }}{{ if eq $msg.Role "user" }}{{ $lastUser = $idx }}{{ end }}{{ end }}last={{ $lastUser }} {{ with .Tools }}tools={{ json . }}{{ else }}none{{ end }}';
    const messages = [
      { Role: "user" },
      { Role: "assistant" },
      { Role: "user" },
      { Role: "assistant" },
    ];
    assert.equal(renderGoTemplate(t, { Messages: messages }), "last=2 none");
    assert.equal(
      renderGoTemplate("{{ with .Tools }}{{ json . }}{{ end }}", { Tools: [{ a: 1 }] }),
      '[{"a":1}]',
    );
    assert.equal(renderGoTemplate('{{ .Content | print "> " }}', { Content: "x" }), "> x");
  });
});

describe("chat templates and tool calls", () => {
  it("renders a Jinja chat template with messages and the generation prompt", () => {
    const t =
      "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}";
    assert.equal(renderChatTemplate(t, [{ role: "user", content: "hi" }]), "<user>hi<assistant>");
    assert.throws(() => renderChatTemplate("{% for %}", []), /chat template/);
  });

  it("extracts <tool_call> blocks and whole-answer JSON calls of declared tools only", () => {
    const tools = [{ type: "function", function: { name: "f" } }];
    const tagged = extractToolCalls(
      'ok <tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>',
      tools,
    );
    assert.deepEqual(tagged, {
      content: "ok",
      calls: [{ function: { index: 0, name: "f", arguments: { a: 1 } } }],
    });
    const whole = extractToolCalls('{"name": "f", "arguments": "{\\"b\\": 2}"}', tools);
    assert.deepEqual(whole.calls, [{ function: { index: 0, name: "f", arguments: { b: 2 } } }]);
    const undeclared = extractToolCalls('{"name": "g", "arguments": {}}', tools);
    assert.deepEqual(undeclared.calls, []);
    assert.deepEqual(extractToolCalls("plain text", tools), { content: "plain text", calls: [] });
  });
});
