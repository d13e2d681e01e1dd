// Ollama's own template functions and error forms, on top of Go's text/template.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GoFloat } from "@quintet/gostd/fmt";
import { LlmsrvError } from "../errors.js";
import { renderGoTemplate, type TemplateData } from "./go-template.js";

const render = (t: string, data: TemplateData = {}) => renderGoTemplate(t, data);

describe("Ollama's template functions", () => {
  it("writes JSON as Go's json.Marshal: sorted keys, HTML-safe strings", () => {
    assert.equal(
      render("{{ json .M }}", { M: { b: 1, a: "<x>&" } }),
      '{"a":"\\u003cx\\u003e\\u0026","b":1}',
    );
    assert.equal(render("{{ json .F }}", { F: new GoFloat(1_000_000) }), "1000000");
    assert.equal(render("{{ json .Missing }}"), "null");
  });

  it("gives today's and yesterday's local date", () => {
    const iso = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    const today = new Date();
    const yesterday = new Date();
    yesterday.setDate(today.getDate() - 1);
    assert.equal(render("{{ currentDate }}"), iso(today));
    assert.equal(render('{{ yesterdayDate "2006-01-02" }}'), iso(yesterday));
  });
});

describe("Ollama's template errors", () => {
  it("are 500s naming only the line, with the missing end spelled out", () => {
    assert.throws(
      () => render("{{ .A.B }}"),
      (e: unknown) =>
        e instanceof LlmsrvError &&
        e.message === 'template: :1: executing "": nil pointer evaluating interface {}.B',
    );
    assert.throws(
      () => render("{{ if .A }}x"),
      (e: unknown) =>
        e instanceof LlmsrvError && e.message === "template: :1: unexpected EOF: missing {{ end }}",
    );
  });
});
