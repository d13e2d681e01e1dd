// Fits a chat to the context window: system messages kept, oldest turns dropped.
import type { TemplateMessage } from "../template/chat-template.js";

/** Counting tokens needs the loaded model; a chat prompt is fitted once it is loaded. */
export interface TokenCounter {
  /** Tokens of a rendered prompt, the beginning-of-text token included. */
  count(text: string): Promise<number>;
  /** The context window (num_ctx). */
  numCtx: number;
}

/** The system messages among the first `end` messages (always kept, as in Ollama). */
function systemBefore<M extends TemplateMessage>(messages: readonly M[], end: number): M[] {
  return messages.slice(0, end).filter((m) => m.role === "system");
}

/**
 * Renders a chat prompt that fits the context window as Ollama does: the last message is
 * always kept, then as many of the latest messages as fit, together with every system
 * message before them; older messages are dropped. With `truncate` false, nothing is dropped
 * (the runtime then refuses a prompt that does not fit).
 */
export async function fitChatPrompt<M extends TemplateMessage>(
  messages: readonly M[],
  render: (messages: M[]) => string,
  counter: TokenCounter,
  truncate: boolean,
): Promise<string> {
  const whole = render([...messages]);
  if (!truncate || messages.length <= 1) return whole;
  // Every token stands for at least one byte, plus the space prefix and the beginning token:
  // a prompt with fewer bytes than the window fits without asking the tokenizer.
  if (Buffer.byteLength(whole) + 2 <= counter.numCtx) return whole;
  if ((await counter.count(whole)) <= counter.numCtx) return whole;
  let first = messages.length - 1;
  for (let i = messages.length - 2; i >= 0; i--) {
    const prompt = render([...systemBefore(messages, i), ...messages.slice(i)]);
    if ((await counter.count(prompt)) > counter.numCtx) break;
    first = i;
  }
  return render([...systemBefore(messages, first), ...messages.slice(first)]);
}
