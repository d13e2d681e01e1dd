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
  return (await fitChatMessages(messages, render, counter, truncate)).prompt;
}

/**
 * `fitChatPrompt`, returning the messages kept too. `extraTokens` counts what a message
 * adds beyond its text (its images, which the runtime encodes separately).
 */
export async function fitChatMessages<M extends TemplateMessage>(
  messages: readonly M[],
  render: (messages: M[]) => string,
  counter: TokenCounter,
  truncate: boolean,
  extraTokens: (m: M) => number = () => 0,
): Promise<{ prompt: string; messages: M[] }> {
  const fitted = (kept: M[]) => ({ prompt: render(kept), messages: kept });
  const whole = fitted([...messages]);
  if (!truncate || messages.length <= 1) return whole;
  const extra = (kept: readonly M[]) => kept.reduce((sum, m) => sum + extraTokens(m), 0);
  const count = async (f: { prompt: string; messages: M[] }) =>
    (await counter.count(f.prompt)) + extra(f.messages);
  // Every token stands for at least one byte, plus the space prefix and the beginning token:
  // a prompt with fewer bytes than the window fits without asking the tokenizer.
  if (Buffer.byteLength(whole.prompt) + 2 + extra(messages) <= counter.numCtx) return whole;
  if ((await count(whole)) <= counter.numCtx) return whole;
  let first = messages.length - 1;
  for (let i = messages.length - 2; i >= 0; i--) {
    const candidate = fitted([...systemBefore(messages, i), ...messages.slice(i)]);
    if ((await count(candidate)) > counter.numCtx) break;
    first = i;
  }
  return fitted([...systemBefore(messages, first), ...messages.slice(first)]);
}
