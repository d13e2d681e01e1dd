/**
 * Splits a model's answer into its reasoning and the rest, the way Ollama's thinking parser
 * does: white space before the opening tag is skipped; when the answer does not start with
 * the tag, it is all content; the reasoning runs to the closing tag (white space after the
 * opening tag and after the closing tag is dropped). Pieces arrive as they are generated, so
 * text that could be the start of a tag is held back until it is known.
 */
type State = "opening" | "eatingAfterOpening" | "thinking" | "eatingAfterClosing" | "done";

/** The length of the longest end of `text` that is a start of `tag`. */
function partialTagAtEnd(text: string, tag: string): number {
  for (let n = Math.min(tag.length, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

export class ThinkingParser {
  private state: State = "opening";
  private held = "";

  constructor(
    readonly openingTag: string,
    readonly closingTag: string,
  ) {}

  /** Adds generated text; returns the reasoning and the content it completes. */
  add(text: string): { thinking: string; content: string } {
    this.held += text;
    let thinking = "";
    let content = "";
    for (;;) {
      const step = this.step();
      thinking += step.thinking;
      content += step.content;
      if (!step.again) return { thinking, content };
    }
  }

  private step(): { thinking: string; content: string; again: boolean } {
    const none = { thinking: "", content: "", again: false };
    const trimmed = this.held.trimStart();
    switch (this.state) {
      case "opening": {
        if (trimmed.startsWith(this.openingTag)) {
          this.held = trimmed.slice(this.openingTag.length).trimStart();
          this.state = this.held === "" ? "eatingAfterOpening" : "thinking";
          return { ...none, again: true };
        }
        if (this.openingTag.startsWith(trimmed)) return none;
        this.state = "done";
        const content = this.held;
        this.held = "";
        return { ...none, content };
      }
      case "eatingAfterOpening":
        if (trimmed === "") return none;
        this.state = "thinking";
        this.held = trimmed;
        return { ...none, again: true };
      case "thinking":
        return this.thinkingStep();
      case "eatingAfterClosing": {
        if (trimmed !== "") this.state = "done";
        this.held = "";
        return { ...none, content: trimmed };
      }
      case "done": {
        const content = this.held;
        this.held = "";
        return { ...none, content };
      }
    }
  }

  private thinkingStep(): { thinking: string; content: string; again: boolean } {
    const at = this.held.indexOf(this.closingTag);
    if (at !== -1) {
      const thinking = this.held.slice(0, at);
      const rest = this.held.slice(at + this.closingTag.length).trimStart();
      this.held = "";
      this.state = rest === "" ? "eatingAfterClosing" : "done";
      return { thinking, content: rest, again: false };
    }
    const partial = partialTagAtEnd(this.held, this.closingTag);
    const thinking = this.held.slice(0, this.held.length - partial);
    this.held = this.held.slice(this.held.length - partial);
    return { thinking, content: "", again: false };
  }
}
