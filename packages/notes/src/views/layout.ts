/**
 * The page shell shared by every page: Bootstrap from `/static/bootstrap.min.css`, a navigation
 * bar, and a main column. Public pages may only use Bootstrap, because the gate's open list
 * lets anonymous visitors fetch nothing else under `/static/`.
 */
import { type HtmlValue, html, type SafeHtml } from "./html.js";

/** What a page puts into the shell. */
export interface LayoutOptions {
  /** Text of the `<title>` element (escaped). */
  readonly title: string;
  /** Main content. */
  readonly body: HtmlValue;
  /** Extra markup for the navigation bar's right side. */
  readonly nav?: HtmlValue;
  /** True on pages only signed-in users see: they may load the app's own stylesheet. */
  readonly signedIn?: boolean;
}

/** Renders a complete HTML document. */
export function layout(options: LayoutOptions): SafeHtml {
  const ownStyles = options.signedIn
    ? html`<link rel="stylesheet" href="/static/notes.css">`
    : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Notes</title>
<link rel="stylesheet" href="/static/bootstrap.min.css">
${ownStyles}
</head>
<body class="bg-light">
<nav class="navbar navbar-dark bg-primary mb-4">
<div class="container">
<a class="navbar-brand fw-semibold" href="/">Notes</a>
${options.nav}
</div>
</nav>
<main class="container pb-5">
${options.body}
</main>
</body>
</html>
`;
}

/** A Bootstrap alert; `kind` is one of Bootstrap's contextual names. */
export function alert(kind: "success" | "info" | "danger" | "warning", text: string): SafeHtml {
  return html`<div class="alert alert-${kind}" role="alert">${text}</div>`;
}
