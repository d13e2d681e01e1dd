// The answer of a chat turn split as it streams: thinking, content and tool calls.
import type { ToolCall, ToolDefinition } from "../api/types.js";
import type { ThinkingParser } from "./thinking-parser.js";
import { ToolCallStream } from "./tool-stream.js";

/** A piece of a chat answer as it streams: content, reasoning, and tool calls once parsed. */
export interface ChatDelta {
  content: string;
  thinking: string;
  toolCalls: ToolCall[];
}

/**
 * The answer of a chat turn, split as Ollama splits it: the reasoning first (the thinking
 * parser), then tool calls found in the rest; each piece goes to `onDelta` when known.
 */
export class ChatOutput {
  content = "";
  thinking = "";
  readonly toolCalls: ToolCall[] = [];
  private readonly tools: ToolCallStream | undefined;

  constructor(
    /** Set once the prompt is known (it may already open the reasoning). */
    public parser: ThinkingParser | undefined,
    tools: readonly ToolDefinition[],
    private readonly onDelta?: (delta: ChatDelta) => void,
  ) {
    this.tools = tools.length > 0 ? new ToolCallStream(tools) : undefined;
  }

  /** Adds generated text. */
  push(text: string): void {
    const split = this.parser ? this.parser.add(text) : { thinking: "", content: text };
    const found = this.tools
      ? this.tools.push(split.content)
      : { content: split.content, calls: [] };
    this.emit({ content: found.content, thinking: split.thinking, toolCalls: found.calls });
  }

  /** End of generation: what the tool parser held is settled. */
  finish(): void {
    if (this.tools) {
      const rest = this.tools.finish();
      this.emit({ content: rest.content, thinking: "", toolCalls: rest.calls });
    }
  }

  private emit(d: ChatDelta): void {
    if (d.content === "" && d.thinking === "" && d.toolCalls.length === 0) return;
    this.content += d.content;
    this.thinking += d.thinking;
    this.toolCalls.push(...d.toolCalls);
    this.onDelta?.(d);
  }
}
