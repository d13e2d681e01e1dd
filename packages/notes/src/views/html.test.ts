import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { escapeHtml, html, type SafeHtml, unsafeRaw } from "./html.js";

describe("the html template tag", () => {
  it("escapes every interpolated string", () => {
    const out = html`<p title="${`"x" onclick='y'`}">${"<script>alert(1)</script> & `t`"}</p>`;
    assert.equal(
      out.value,
      '<p title="&quot;x&quot; onclick=&#39;y&#39;">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#96;t&#96;</p>',
    );
  });

  it("inserts nested templates and explicitly trusted markup as they are", () => {
    const inner = html`<b>${"<i>"}</b>`;
    assert.equal(html`<p>${inner}${unsafeRaw("<hr>")}</p>`.value, "<p><b>&lt;i&gt;</b><hr></p>");
  });

  it("escapes each item of an array and joins them", () => {
    const items = ["<a>", html`<li>ok</li>`, "b"];
    assert.equal(html`<ul>${items}</ul>`.value, "<ul>&lt;a&gt;<li>ok</li>b</ul>");
  });

  it("renders null, undefined and false as nothing, numbers and true as text", () => {
    assert.equal(html`${null}${undefined}${false}|${0}|${true}`.value, "|0|true");
  });

  it("does not treat an object that merely looks like SafeHtml as trusted", () => {
    const fake = { value: "<script>" } as unknown as SafeHtml;
    assert.equal(html`${fake}`.value, "[object Object]");
  });

  it("escapes all five HTML-significant characters and the backtick", () => {
    assert.equal(escapeHtml(`&<>"'\``), "&amp;&lt;&gt;&quot;&#39;&#96;");
  });
});
