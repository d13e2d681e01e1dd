/**
 * A tiny HTML template tag that escapes every interpolation by default. Only values that are
 * already `SafeHtml` (the result of another `html` template, or `unsafeRaw` for trusted
 * constants) are inserted as they are; arrays are joined after escaping each item.
 */

/** A string of markup that is known to be safe to insert without escaping. */
export class SafeHtml {
  readonly value: string;

  constructor(value: string) {
    this.value = value;
  }

  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => ESCAPES[ch] ?? ch);
}

/** Values a template may interpolate. `null`, `undefined` and `false` render as nothing. */
export type HtmlValue =
  | SafeHtml
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/**
 * Builds markup from a template literal, escaping every interpolated value.
 * @example html`<p>${userText}</p>` // "<script>" in userText becomes "&lt;script&gt;"
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) {
    out += render(values[i]) + (strings[i + 1] ?? "");
  }
  return new SafeHtml(out);
}

/** Marks a trusted constant string as markup. Never pass user input here. */
export function unsafeRaw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
