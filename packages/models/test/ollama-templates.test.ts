import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { skipUnlessProvided } from "@quintet/kit/testing";
import type { PromptMessage } from "../src/template/ollama-template.js";
import { OllamaTemplate } from "../src/template/ollama-template.js";
import { checkGoTemplate } from "../src/template/template-check.js";
import { OLLAMA_TEMPLATES_DIR } from "./harness.js";

const skip = skipUnlessProvided(
  existsSync(OLLAMA_TEMPLATES_DIR)
    ? undefined
    : `Ollama's templates absent at ${OLLAMA_TEMPLATES_DIR}`,
);

const user = (content: string): PromptMessage => ({ role: "user", content });
const assistant = (content: string): PromptMessage => ({ role: "assistant", content });

/** The three conversations of the data's README. */
const CONVERSATIONS: Record<string, PromptMessage[]> = {
  user: [user("Hello, how are you?")],
  "user-assistant-user": [
    user("Hello, how are you?"),
    assistant("I'm doing great. How can I help you today?"),
    user("I'd like to show off how chat templating works!"),
  ],
  "system-user-assistant-user": [
    { role: "system", content: "You are a helpful assistant." },
    user("Hello, how are you?"),
    assistant("I'm doing great. How can I help you today?"),
    user("I'd like to show off how chat templating works!"),
  ],
};

function templateNames(): string[] {
  return readdirSync(OLLAMA_TEMPLATES_DIR)
    .filter((f) => f.endsWith(".gotmpl"))
    .map((f) => f.slice(0, -".gotmpl".length))
    .sort();
}

describe("Ollama's built-in templates render byte for byte", { skip }, () => {
  it("renders every template for every conversation as Ollama does", () => {
    const failures: string[] = [];
    let total = 0;
    for (const name of templateNames()) {
      const source = readFileSync(join(OLLAMA_TEMPLATES_DIR, `${name}.gotmpl`), "utf8").replaceAll(
        "\r\n",
        "\n",
      );
      const template = OllamaTemplate.parse(source);
      const dir = join(OLLAMA_TEMPLATES_DIR, "testdata", `${name}.gotmpl`);
      for (const [caseName, messages] of Object.entries(CONVERSATIONS)) {
        const file = join(dir, caseName);
        if (!existsSync(file)) continue;
        total++;
        const expected = readFileSync(file, "utf8");
        const actual = template.execute({ messages });
        if (actual !== expected)
          failures.push(
            `${name}/${caseName}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`,
          );
      }
    }
    console.log(`Ollama template renderings matching: ${total - failures.length} of ${total}`);
    assert.ok(total >= 60, `expected at least 60 renderings, found ${total}`);
    assert.deepEqual(failures, []);
  });

  it("passes the create-time checks (fields, functions, limits) for every template", () => {
    for (const name of templateNames()) {
      const source = readFileSync(join(OLLAMA_TEMPLATES_DIR, `${name}.gotmpl`), "utf8");
      assert.doesNotThrow(() => checkGoTemplate(source), name);
    }
  });
});
