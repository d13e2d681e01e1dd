/**
 * `rego fmt`'s formatter: parses a module and prints it in OPA's canonical layout, keeping
 * its comments. The result is parsed again before it is returned, so a formatting bug shows
 * as an error rather than as a changed policy (OPA's `--check-result`).
 */
import { RegoErrorList } from "../errors.js";
import { SourceMap } from "../syntax/lexer.js";
import { parseModule } from "../syntax/module-parser.js";
import { CommentQueue, readComments } from "./comments.js";
import { importLines } from "./imports.js";
import { ModulePrinter } from "./module-printer.js";
import { type FormatOptions, printStyle } from "./style.js";
import { Writer } from "./writer.js";

export type { FormatOptions } from "./style.js";

/** The formatter wrote something that does not parse (a formatter bug). */
export class FormatCheckError extends Error {
  override name = "FormatCheckError";
}

/** The formatted text of a module; throws RegoErrorList when it does not parse. */
export function formatSource(file: string, source: string, opts: FormatOptions = {}): string {
  const module = parseModule(file, source, opts.parseV0 ?? false);
  const map = new SourceMap(file, source);
  const w = new Writer();
  const printer = new ModulePrinter(
    w,
    map,
    new CommentQueue(readComments(map)),
    printStyle(module, opts),
  );
  printer.writeModule(module, importLines(module, opts));
  const out = w.text();
  checkResult(file, out, opts);
  return out;
}

/** The formatted module must parse (as the version it was written for). */
function checkResult(file: string, out: string, opts: FormatOptions): void {
  try {
    parseModule(file, out, opts.writeV0 ?? false);
  } catch (e) {
    const first = e instanceof RegoErrorList ? e.errors[0] : undefined;
    throw new FormatCheckError(
      `${file} was formatted, but the result does not parse: ${first?.message ?? String(e)}`,
    );
  }
}
