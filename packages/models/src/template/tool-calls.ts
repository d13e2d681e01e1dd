// Finds tool calls in a model's answer: JSON or `<tool_call>` blocks naming declared tools.
import type { ToolCall, ToolDefinition } from "../api/types.js";

function asCall(value: unknown, names: ReadonlySet<string>): ToolCall | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const inner = (typeof v.function === "object" && v.function !== null ? v.function : v) as Record<
    string,
    unknown
  >;
  const name = inner.name;
  let args = inner.arguments ?? inner.parameters ?? {};
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return undefined;
    }
  }
  if (typeof name !== "string" || !names.has(name) || typeof args !== "object" || args === null)
    return undefined;
  return { function: { name, arguments: args as Record<string, unknown> } };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

/**
 * Removes the `<tool_call>{json}</tool_call>` blocks that name a declared tool, pushing their
 * calls to `calls`. One pass with `indexOf` (linear in the answer's length, unlike a lazy
 * regular expression, which rescans the rest of the text from every unclosed tag).
 */
function withoutTaggedCalls(text: string, names: ReadonlySet<string>, calls: ToolCall[]): string {
  const kept: string[] = [];
  let pos = 0;
  for (;;) {
    const open = text.indexOf(OPEN, pos);
    const close = open === -1 ? -1 : text.indexOf(CLOSE, open + OPEN.length);
    if (close === -1) break;
    const call = asCall(parseJson(text.slice(open + OPEN.length, close)), names);
    kept.push(text.slice(pos, call ? open : close + CLOSE.length));
    if (call) calls.push(call);
    pos = close + CLOSE.length;
  }
  kept.push(text.slice(pos));
  return kept.join("");
}

/**
 * Finds tool calls in a model's answer: `<tool_call>{json}</tool_call>` blocks, or an answer
 * that is as a whole a JSON object (or array of them) naming a declared tool. Returns the
 * calls and the remaining content; names not declared in `tools` are left as text.
 */
export function extractToolCalls(
  text: string,
  tools: readonly ToolDefinition[],
): { content: string; calls: ToolCall[] } {
  const names = new Set(
    tools.map((t) => t.function?.name).filter((n): n is string => typeof n === "string"),
  );
  if (names.size === 0) return { content: text, calls: [] };
  const calls: ToolCall[] = [];
  const content = withoutTaggedCalls(text, names, calls);
  if (calls.length > 0) return { content: content.trim(), calls: indexed(calls) };
  const whole = parseJson(text.trim());
  const list = Array.isArray(whole) ? whole : [whole];
  const parsed = list.map((v) => asCall(v, names));
  if (whole !== undefined && parsed.every((c) => c !== undefined)) {
    return { content: "", calls: indexed(parsed as ToolCall[]) };
  }
  return { content: text, calls: [] };
}

function indexed(calls: ToolCall[]): ToolCall[] {
  return calls.map((c, index) => ({ function: { index, ...c.function } }));
}
