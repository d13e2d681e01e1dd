/**
 * METADATA comment blocks: `# METADATA` followed by YAML comment lines, attached to the
 * package or rule that follows them.
 */
import { parse as parseYaml } from "yaml";
import type { Annotation, Module } from "../ast/nodes.js";
import type { Comment, SourceMap } from "./lexer.js";

interface Block {
  row: number;
  endRow: number;
  col: number;
  yaml: string;
}

function findBlocks(comments: Comment[]): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < comments.length; i++) {
    const c = comments[i] as Comment;
    if (c.text.trim() !== "METADATA") continue;
    const lines: string[] = [];
    let row = c.row;
    let j = i + 1;
    while (j < comments.length && (comments[j] as Comment).row === row + 1) {
      const text = (comments[j] as Comment).text;
      lines.push(text.startsWith(" ") ? text.slice(1) : text);
      row++;
      j++;
    }
    blocks.push({ row: c.row, endRow: row, col: c.col, yaml: lines.join("\n") });
    i = j - 1;
  }
  return blocks;
}

/** Parses the module's METADATA blocks and attaches each to the next package or rule. */
export function attachAnnotations(module: Module, comments: Comment[], map: SourceMap): void {
  for (const block of findBlocks(comments)) {
    let fields: Record<string, unknown>;
    try {
      const parsed = parseYaml(block.yaml) as unknown;
      fields = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
    } catch (e) {
      throw map.error(0, `invalid METADATA block: ${(e as Error).message}`);
    }
    const loc = { file: module.file, row: block.row, col: block.col, start: 0, end: 0 };
    if (module.pkgLoc.row > block.endRow) {
      const scope = typeof fields.scope === "string" ? fields.scope : "package";
      module.annotations.push({ scope, fields, loc });
      continue;
    }
    const rule = module.rules.find((r) => r.loc.row > block.endRow);
    if (!rule) continue;
    const scope = typeof fields.scope === "string" ? fields.scope : "rule";
    const annotation: Annotation = { scope, fields, loc };
    if (scope === "package" || scope === "subpackages") module.annotations.push(annotation);
    else {
      rule.annotations = rule.annotations ?? [];
      rule.annotations.push(annotation);
    }
  }
}
