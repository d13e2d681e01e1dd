/** The `#` comments of a policy's source, located as OPA's Module.Comments holds them. */
import type { CommentAt } from "../ast/opa-json.js";
import { type Comment, SourceMap, tokenize } from "./lexer.js";

/** Every comment of `source`, in order, with its text after `#` and where it is. */
export function moduleComments(file: string, source: string): CommentAt[] {
  const found: Comment[] = [];
  tokenize(new SourceMap(file, source), 0, source.length, found);
  return found.map((c) => ({ ...c, end: c.start + 1 + c.text.length }));
}
