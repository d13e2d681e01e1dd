// Tests of Ollama's template semantics: .Messages, .Prompt, .Tools, think and suffix.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildChatPrompt, buildGeneratePrompt, type PromptModel } from "./build-prompt.js";
import {
  collate,
  OllamaTemplate,
  type PromptMessage,
  templateCapabilities,
} from "./ollama-template.js";
import { checkGoTemplate } from "./template-check.js";

function model(template: string, parts: Partial<PromptModel> = {}): PromptModel {
  return {
    template,
    system: undefined,
    messages: [],
    facts: { chatTemplate: undefined },
    ...parts,
  };
}

const CONVERSATION: PromptMessage[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "u1" },
  { role: "assistant", content: "a1" },
  { role: "user", content: "u2" },
];

describe("Ollama's template data", () => {
  it("exposes messages with Role, Content, Thinking, ToolName and ToolCalls[].Function", () => {
    const t =
      "{{ range .Messages }}{{ .Role }}|{{ .Content }}|{{ .Thinking }}|{{ .ToolName }}|{{ range .ToolCalls }}{{ .Function.Name }}({{ .Function.Arguments }}){{ end }};{{ end }}";
    const messages: PromptMessage[] = [
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: "",
        thinking: "hmm",
        tool_calls: [{ function: { name: "get", arguments: { z: 1, a: "<b>" } } }],
      },
      { role: "tool", content: "18", tool_name: "get" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "now", arguments: undefined } }],
      },
    ];
    assert.equal(
      OllamaTemplate.parse(t).execute({ messages }),
      'user|weather?|||;assistant||hmm||get({"a":"\\u003cb\\u003e","z":1});tool|18||get|;assistant||||now(null);',
    );
  });

  it("exposes tools with Type and Function.Name/Description/Parameters, printed as JSON", () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "get",
          description: "weather",
          parameters: {
            type: "object",
            required: ["city"],
            properties: {
              days: { type: ["integer", "null"] },
              city: { type: "string", description: "c" },
            },
          },
        },
      },
    ];
    const t =
      "{{ range .Tools }}{{ .Type }}:{{ .Function.Name }}:{{ .Function.Description }}{{ range $k, $v := .Function.Parameters.Properties }}[{{ $k }}:{{ $v.Type }}:{{ toTypeScriptType $v }}]{{ end }}\n{{ .Function }}\n{{ json . }}{{ end }}{{ range .Messages }}{{ end }}";
    const json =
      '{"type":"function","function":{"name":"get","description":"weather","parameters":{"type":"object","required":["city"],"properties":{"city":{"type":"string","description":"c"},"days":{"type":["integer","null"]}}}}}';
    assert.equal(
      OllamaTemplate.parse(t).execute({ messages: [{ role: "user", content: "x" }], tools }),
      `function:get:weather[city:string:string][days:[integer null]:number | null]\n${JSON.stringify(JSON.parse(json).function)}\n${json}`,
    );
    const none = OllamaTemplate.parse(
      "{{ .Tools }}|{{ json .Tools }}|{{ if .Tools }}y{{ end }}|{{ range .Messages }}{{ end }}",
    );
    assert.equal(none.execute({ messages: [] }), "[]|null||");
  });

  it("passes .Think, .ThinkLevel and .IsThinkSet", () => {
    const t = OllamaTemplate.parse(
      "{{ if .IsThinkSet }}set:{{ .Think }}:{{ .ThinkLevel }}{{ else }}unset:{{ .Think }}{{ end }}|{{ range .Messages }}{{ .Content }}{{ end }}",
    );
    const messages = [{ role: "user", content: "q" }];
    assert.equal(t.execute({ messages, think: "high" }), "set:true:high|q");
    assert.equal(t.execute({ messages, think: true }), "set:true:|q");
    assert.equal(t.execute({ messages, think: false }), "set:false:|q");
    assert.equal(t.execute({ messages }), "unset:false|q");
    const chat = buildChatPrompt(
      model("{{ .Think }}{{ range .Messages }}{{ end }}"),
      messages,
      [],
      { think: true },
    );
    assert.equal(chat, "true");
  });

  it("joins system messages and merges consecutive messages of one role, but not tool results", () => {
    const { system, messages } = collate([
      { role: "system", content: "s1" },
      { role: "system", content: "s2" },
      { role: "user", content: "a" },
      { role: "user", content: "b" },
      { role: "tool", content: "t1" },
      { role: "tool", content: "t2" },
    ]);
    assert.equal(system, "s1\n\ns2");
    assert.deepEqual(
      messages.map((m) => [m.role, m.content]),
      [
        ["system", "s1\n\ns2"],
        ["user", "a\n\nb"],
        ["tool", "t1"],
        ["tool", "t2"],
      ],
    );
  });
});

describe("capabilities from a template's names", () => {
  it("gives tools for .Tools, insert for .Suffix, thinking for .Think", () => {
    assert.deepEqual(templateCapabilities("{{ .Prompt }}"), []);
    assert.deepEqual(
      templateCapabilities("{{ if .Think }}t{{ end }}{{ .Suffix }}{{ range $.Tools }}{{ end }}"),
      ["tools", "insert", "thinking"],
    );
    assert.deepEqual(templateCapabilities("{{ if }}"), []);
  });
});

describe("templates without .Messages", () => {
  it("render one turn per earlier exchange, and stop right after {{ .Response }}", () => {
    const t = "{{ if .System }}S:{{ .System }}\n{{ end }}U:{{ .Prompt }}\nA:{{ .Response }}<end>\n";
    assert.equal(buildChatPrompt(model(t), CONVERSATION), "S:sys\nU:u1\nA:a1<end>\nU:u2\nA:");
  });

  it("get {{ .Response }} appended when they use neither it nor .Messages", () => {
    assert.equal(buildChatPrompt(model("[{{ .Prompt }}]"), CONVERSATION.slice(1)), "[u1]a1[u2]");
  });

  it("drop the rest of the template after {{ .Response }}, inside blocks too", () => {
    const t = "{{ if .Prompt }}<u>{{ .Prompt }}</u><a>{{ .Response }}</a>{{ end }}tail";
    assert.equal(buildGeneratePrompt(model(t), { prompt: "p", raw: false }), "<u>p</u><a>");
  });

  it("fill in the middle with .Prompt and .Suffix when a suffix is given", () => {
    const t =
      "{{ if .Suffix }}<PRE> {{ .Prompt }} <SUF>{{ .Suffix }} <MID>{{ else }}{{ .Prompt }}{{ end }}";
    assert.equal(
      buildGeneratePrompt(model(t), { prompt: "def f(", suffix: "return 1", raw: false }),
      "<PRE> def f( <SUF>return 1 <MID>",
    );
  });

  it("include the Modelfile MESSAGEs in generate, unless context continues an exchange", () => {
    const m = model("{{ range .Messages }}{{ .Role }}:{{ .Content }};{{ end }}", {
      messages: [
        { role: "user", content: "m1" },
        { role: "assistant", content: "m2" },
      ],
      system: "S",
    });
    assert.equal(
      buildGeneratePrompt(m, { prompt: "p", raw: false }),
      "system:S;user:m1;assistant:m2;user:p;",
    );
    assert.equal(
      buildGeneratePrompt(m, { prompt: "p", raw: false, previous: "ctx " }),
      "ctx system:S;user:p;",
    );
  });
});

describe("template checks at create", () => {
  const rejects = (t: string, pattern: RegExp) =>
    assert.throws(
      () => checkGoTemplate(t),
      (e: unknown) =>
        (e as { code?: string }).code === "bad_request" && pattern.test((e as Error).message),
    );

  it("refuses a field the template data lacks, naming the line", () => {
    rejects("{{ .System }}\n{{ .Sytem }}", /template: :2: the template data has no field "Sytem"/);
    rejects(
      "{{ range .Messages }}\n\n{{ .Rol }}{{ end }}",
      /template: :3: can't evaluate field Rol in type api.Message/,
    );
    rejects(
      "{{ range .Tools }}{{ .Function.Nme }}{{ end }}",
      /:1: can't evaluate field Nme in type api.ToolFunction/,
    );
    rejects(
      "{{ range $m := .Messages }}{{ range $m.ToolCalls }}{{ .Function.Args }}{{ end }}{{ end }}",
      /field Args in type api.ToolCallFunction/,
    );
    rejects(
      "{{ with .Prompt }}{{ .Length }}{{ end }}",
      /can't evaluate field Length in type string/,
    );
  });

  it("refuses an unknown function or bad syntax, naming the line", () => {
    rejects("ok\n{{ upper .Prompt }}", /template: :2: function "upper" not defined/);
    rejects("{{ if .Prompt }}", /missing \{\{ end \}\}/);
  });

  it("accepts fields of open values (tool-call arguments, schema parts) and variables", () => {
    checkGoTemplate(
      "{{ $last := len .Messages }}{{ range $i, $m := .Messages }}{{ range .ToolCalls }}{{ .Function.Arguments.city }}{{ end }}{{ $m.Content }}{{ end }}{{ range .Tools }}{{ .Function.Parameters.Items.anything }}{{ end }}{{ .Think }}{{ .ThinkLevel }}{{ .IsThinkSet }}{{ .Suffix }}",
    );
  });
});
