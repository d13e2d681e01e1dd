// A Modelfile TEMPLATE executed as Ollama executes it, with its data and capabilities.
import { NIL_SLICE } from "@quintet/gostd/fmt";
import type { Node } from "@quintet/gostd/template";
import type { ToolDefinition } from "../api/types.js";
import type { TemplateMessage } from "./chat-template.js";
import {
  cutAfterResponse,
  executeGoTemplate,
  identifiers,
  type ParsedGoTemplate,
  parseGoTemplate,
  RESPONSE_ACTION,
} from "./go-template.js";
import { goMessage, goTool } from "./ollama-types.js";
import { DEFAULT_TEMPLATE_LIMITS, type TemplateLimits } from "./template-budget.js";

/** Ollama's template for a model without one (template.DefaultTemplate): the prompt alone. */
export const DEFAULT_TEMPLATE = "{{ .Prompt }}";

/**
 * A Modelfile TEMPLATE executed the way Ollama executes it (its `template.Template`):
 *
 * - A template that uses neither `.Messages` nor `.Response` gets `{{ .Response }}` appended.
 * - With a prompt and a suffix (fill-in-the-middle), the data is `.Prompt`, `.Suffix`.
 * - A template that uses `.Messages` gets the whole conversation once: `.System` (all system
 *   messages joined by a blank line), `.Messages` (consecutive messages of one role merged,
 *   tool results kept apart), `.Tools`.
 * - Any other template is rendered once per exchange (system, prompt, response) and the
 *   renderings are concatenated; the last one stops right after `{{ .Response }}`, so the
 *   prompt ends where the model's answer begins.
 *
 * Every rendering also sees `.Think`, `.ThinkLevel` and `.IsThinkSet`.
 */

/** A message as the prompt builders pass it (the request's fields). */
export interface PromptMessage extends TemplateMessage {
  thinking?: string;
  images?: unknown[];
}

/** What a rendering needs besides the template. */
export interface TemplateValues {
  messages: readonly PromptMessage[];
  tools?: readonly ToolDefinition[];
  /** Fill-in-the-middle: both set, the template gets only these. */
  prompt?: string;
  suffix?: string;
  /** The request's `think`: `true`/`false`, or a level (`"low"`, `"medium"`, `"high"`). */
  think?: boolean | string;
}

export class OllamaTemplate {
  /** Field and variable names the template uses, lower-cased (Ollama's `Vars`). */
  readonly vars: readonly string[];
  private readonly root: Node[];
  private readonly cutRoot: Node[];

  private constructor(
    readonly source: string,
    private readonly tree: ParsedGoTemplate,
  ) {
    const names = new Set<string>();
    for (const body of [tree.root, ...tree.defines.values()])
      for (const n of identifiers(body)) names.add(n);
    this.vars = [...names].sort();
    const appendResponse = !names.has("messages") && !names.has("response");
    this.root = appendResponse ? [...tree.root, RESPONSE_ACTION] : tree.root;
    this.cutRoot = cutAfterResponse(this.root);
  }

  /** Parses `source` (cached: templates are rendered on every request). */
  static parse(source: string, limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS): OllamaTemplate {
    const cached = CACHE.get(source);
    if (cached) return cached;
    const t = new OllamaTemplate(source, parseGoTemplate(source, limits));
    if (CACHE.size >= CACHE_SIZE) CACHE.delete(CACHE.keys().next().value as string);
    CACHE.set(source, t);
    return t;
  }

  get usesMessages(): boolean {
    return this.vars.includes("messages");
  }

  /** Renders the prompt for `values`, within `limits`. */
  execute(values: TemplateValues, limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS): string {
    const think = thinkFields(values.think);
    if (values.prompt && values.suffix)
      return this.run(
        this.root,
        { Prompt: values.prompt, Suffix: values.suffix, Response: "", ...think },
        limits,
      );
    const { system, messages } = collate(values.messages);
    if (this.usesMessages) {
      const tools = values.tools?.length ? values.tools.map(goTool) : NIL_SLICE;
      const data = {
        System: system,
        Messages: messages.map(goMessage),
        Tools: tools,
        Response: "",
        ...think,
      };
      return this.run(this.root, data, limits);
    }
    return this.legacy(messages, think, limits);
  }

  /** One rendering per exchange, concatenated; the last stops after `{{ .Response }}`. */
  private legacy(
    messages: readonly PromptMessage[],
    think: object,
    limits: TemplateLimits,
  ): string {
    let out = "";
    let system = "";
    let prompt = "";
    let response = "";
    const flush = () => {
      out += this.run(
        this.root,
        { System: system, Prompt: prompt, Response: response, ...think },
        limits,
      );
      system = prompt = response = "";
    };
    for (const m of messages) {
      if (m.role === "system") {
        if (prompt || response) flush();
        system = m.content;
      } else if (m.role === "user") {
        if (response) flush();
        prompt = m.content;
      } else if (m.role === "assistant") response = m.content;
    }
    return (
      out +
      this.run(
        this.cutRoot,
        { System: system, Prompt: prompt, Response: response, ...think },
        limits,
      )
    );
  }

  private run(nodes: readonly Node[], data: object, limits: TemplateLimits): string {
    return executeGoTemplate(this.tree, data, limits, nodes);
  }
}

/**
 * The field and variable names a Go template uses, lower-cased (none when it does not parse:
 * such a template serves nothing, and create refuses new ones).
 */
export function templateVars(source: string | undefined): readonly string[] {
  if (source === undefined) return [];
  try {
    return OllamaTemplate.parse(source).vars;
  } catch {
    return [];
  }
}

/** Capabilities a Go template gives a model by the names it uses (Ollama's rule). */
export function templateCapabilities(source: string): Array<"tools" | "insert" | "thinking"> {
  const vars = templateVars(source);
  const caps: Array<"tools" | "insert" | "thinking"> = [];
  if (vars.includes("tools")) caps.push("tools");
  if (vars.includes("suffix")) caps.push("insert");
  if (vars.includes("think")) caps.push("thinking");
  return caps;
}

const CACHE_SIZE = 64;
const CACHE = new Map<string, OllamaTemplate>();

/** A request's `think` (already validated) as the template inputs take it. */
export function thinkInput(value: unknown): boolean | string | undefined {
  return typeof value === "boolean" || typeof value === "string" ? value : undefined;
}

function thinkFields(think: boolean | string | undefined): Record<string, unknown> {
  const level = typeof think === "string" ? think : "";
  return {
    Think: think === true || level !== "",
    ThinkLevel: level,
    IsThinkSet: think !== undefined,
  };
}

/**
 * Ollama's `collate`: all system messages joined by a blank line, and the conversation
 * with consecutive messages of one role merged (tool results stay separate).
 */
export function collate(messages: readonly PromptMessage[]): {
  system: string;
  messages: PromptMessage[];
} {
  const system: string[] = [];
  const out: PromptMessage[] = [];
  for (const m of messages) {
    if (m.role === "system") system.push(m.content);
    const last = out[out.length - 1];
    if (last && last.role === m.role && m.role !== "tool")
      out[out.length - 1] = { ...last, content: `${last.content}\n\n${m.content}` };
    else out.push(m);
  }
  return { system: system.join("\n\n"), messages: out };
}
