// Finds tool calls in a streaming answer, releasing plain text as soon as it is known.
import type { ToolCall, ToolDefinition } from "../api/types.js";
import { extractToolCalls } from "../template/tool-calls.js";

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

/** The length of the longest end of `text` that is a start of `tag`. */
function partialAtEnd(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

/**
 * Finds tool calls in an answer while it streams: text is released as it is generated,
 * except what could belong to a call. A `<tool_call>…</tool_call>` block is held from its
 * opening tag and becomes a call when it closes (or text again, when it names no declared
 * tool); an answer that starts with `{` or `[` is held to the end, where it is a call if
 * it is as a whole a JSON call (`tool-calls.ts` decides what counts).
 */
export class ToolCallStream {
  private held = "";
  private started = false;
  private wholeJson = false;
  private count = 0;

  constructor(private readonly tools: readonly ToolDefinition[]) {}

  /** Adds content; returns the text that can be shown and the calls completed. */
  push(text: string): { content: string; calls: ToolCall[] } {
    this.held += text;
    if (!this.started) {
      const lead = this.held.trimStart();
      if (lead === "") return { content: "", calls: [] };
      this.started = true;
      this.wholeJson = lead.startsWith("{") || lead.startsWith("[");
    }
    if (this.wholeJson) return { content: "", calls: [] };
    return this.scanBlocks();
  }

  /** End of the answer: what is still held is parsed as a whole. */
  finish(): { content: string; calls: ToolCall[] } {
    const rest = this.held;
    this.held = "";
    const { content, calls } = extractToolCalls(rest, this.tools);
    return { content, calls: this.numbered(calls) };
  }

  private scanBlocks(): { content: string; calls: ToolCall[] } {
    let content = "";
    const calls: ToolCall[] = [];
    for (;;) {
      const open = this.held.indexOf(OPEN);
      if (open === -1) {
        const keep = partialAtEnd(this.held, OPEN);
        content += this.held.slice(0, this.held.length - keep);
        this.held = this.held.slice(this.held.length - keep);
        return { content, calls };
      }
      content += this.held.slice(0, open);
      this.held = this.held.slice(open);
      const close = this.held.indexOf(CLOSE);
      if (close === -1) return { content, calls };
      const block = this.held.slice(0, close + CLOSE.length);
      this.held = this.held.slice(block.length);
      const parsed = extractToolCalls(block, this.tools);
      if (parsed.calls.length === 0) content += block;
      calls.push(...this.numbered(parsed.calls));
    }
  }

  private numbered(calls: ToolCall[]): ToolCall[] {
    return calls.map((c) => ({ function: { ...c.function, index: this.count++ } }));
  }
}
