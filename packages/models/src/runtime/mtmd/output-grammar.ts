/**
 * GBNF grammars for `format`: the JSON grammar node-llama-cpp ships (llama/grammars/json.gbnf)
 * and, for a schema, node-llama-cpp's own schema-to-GBNF generator, so a projector model
 * constrains output exactly as llama-runtime.ts does for the others.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { badRequest, messageOf } from "../../errors.js";
import type { OutputFormat } from "../model-runner.js";

/**
 * A schema grammar ends in four newlines (node-llama-cpp stops there): this stop sequence
 * ends generation at the end of the JSON value.
 */
export const SCHEMA_GRAMMAR_END = "\n\n\n\n";

type SchemaToGbnf = (schema: unknown) => string;

/** node-llama-cpp's dist folder (its exports map hides the files used here). */
function distDir(): string {
  return dirname(fileURLToPath(import.meta.resolve("node-llama-cpp")));
}

let jsonGrammar: Promise<string> | undefined;
let schemaToGbnf: Promise<SchemaToGbnf> | undefined;

/** The GBNF that constrains output to `format`, or undefined for none. */
export async function grammarFor(format: OutputFormat | undefined): Promise<string | undefined> {
  if (!format) return undefined;
  try {
    if (format.kind === "json") {
      jsonGrammar ??= readFile(join(distDir(), "..", "llama", "grammars", "json.gbnf"), "utf8");
      return await jsonGrammar;
    }
    schemaToGbnf ??= import(
      pathToFileURL(join(distDir(), "utils", "gbnfJson", "getGbnfGrammarForGbnfJsonSchema.js")).href
    ).then(
      (m: { getGbnfGrammarForGbnfJsonSchema: SchemaToGbnf }) => m.getGbnfGrammarForGbnfJsonSchema,
    );
    return (await schemaToGbnf)(format.schema);
  } catch (e) {
    throw badRequest(
      `invalid format: ${messageOf(e)}; expected "json" or a valid JSON Schema object`,
    );
  }
}
