/**
 * METADATA comment blocks, grouped and attached as OPA's parser does: a block starts at any
 * comment whose text begins with `METADATA` and takes each following comment that sits on
 * the next row at column 1 (so a comment after code on its line never joins a block). The
 * block belongs to the first package, import or rule below its `METADATA` line.
 */
import type { Annotation, Module, Rule } from "../ast/nodes.js";
import { RegoError, RegoErrorList } from "../errors.js";
import type { Comment } from "./lexer.js";
import { type MetadataBlock, readBlock, separatorHints } from "./metadata-yaml.js";

function findBlocks(comments: Comment[]): MetadataBlock[] {
  const blocks: MetadataBlock[] = [];
  let current: MetadataBlock | undefined;
  for (let i = 0; i < comments.length; i++) {
    const c = comments[i] as Comment;
    if (current) {
      const previous = comments[i - 1] as Comment;
      if (c.row === previous.row + 1 && c.col === 1) {
        current.lines.push(c);
        continue;
      }
      current = undefined;
    }
    if (c.text.trim().startsWith("METADATA")) {
      current = { header: c, lines: [] };
      blocks.push(current);
    }
  }
  return blocks;
}

/** A statement an annotation can be attached to, as OPA names its kind in errors. */
type Target =
  | { kind: "package"; row: number }
  | { kind: "import"; row: number }
  | { kind: "rule"; row: number; rule: Rule };

function targets(module: Module): Target[] {
  return [
    { kind: "package", row: module.pkgLoc.row },
    ...module.imports.map((i): Target => ({ kind: "import", row: i.loc.row })),
    ...module.rules.map((rule): Target => ({ kind: "rule", row: rule.loc.row, rule })),
  ];
}

const scopes = "'rule', 'document', 'package', or 'subpackages'";

/** OPA's errors for a scope that does not fit the statement below the block. */
function scopeErrors(scope: string, target: Target | undefined, entrypoint: boolean): string[] {
  const errors: string[] = [];
  const have = target ? ` (have ${target.kind})` : "";
  if (scope === "rule" || scope === "document") {
    if (target?.kind !== "rule")
      errors.push(`annotation scope '${scope}' must be applied to rule${have}`);
  } else if (scope === "package" || scope === "subpackages") {
    if (target?.kind !== "package") {
      errors.push(`annotation scope '${scope}' must be applied to package${have}`);
    }
  } else errors.push(`invalid annotation scope '${scope}'. Use one of ${scopes}`);
  if (entrypoint && scope !== "document" && scope !== "package") {
    errors.push(`annotation entrypoint applied to non-document or package scope '${scope}'`);
  }
  return errors;
}

function defaultScope(target: Target | undefined, entrypoint: boolean): string {
  if (target?.kind === "rule") return entrypoint ? "document" : "rule";
  return target?.kind ?? "";
}

/**
 * Parses the module's METADATA blocks and attaches each to the statement below it. Throws
 * every YAML error at once; only when there are none, every scope error.
 */
export function attachAnnotations(module: Module, comments: Comment[]): void {
  const blocks = findBlocks(comments);
  if (blocks.length === 0) return;
  const read = blocks.map((block) => ({ block, reading: readBlock(block) }));
  const yamlErrors = read.flatMap(({ block, reading }) => {
    if (!("error" in reading)) return [];
    const hint = reading.hint ? separatorHints(block.lines) : "";
    return [errorAt(module.file, reading.at, reading.error + hint)];
  });
  if (yamlErrors.length > 0) throw new RegoErrorList(yamlErrors);
  const statements = targets(module);
  const scopeProblems: RegoError[] = [];
  for (const { block, reading } of read) {
    if (!("fields" in reading)) continue;
    const { fields } = reading;
    const { header } = block;
    const target = statements.find((s) => s.row > header.row);
    const entrypoint = fields.entrypoint === true;
    const given = typeof fields.scope === "string" ? fields.scope : "";
    const scope = given === "" ? defaultScope(target, entrypoint) : given;
    const problems = scopeErrors(scope, target, entrypoint);
    for (const p of problems) scopeProblems.push(errorAt(module.file, header, p));
    if (problems.length > 0 || !target) continue;
    const annotation: Annotation = { scope, fields, loc: blockLoc(module.file, block) };
    if (target.kind === "rule") {
      target.rule.annotations = target.rule.annotations ?? [];
      target.rule.annotations.push(annotation);
    } else module.annotations.push(annotation);
  }
  if (scopeProblems.length > 0) throw new RegoErrorList(scopeProblems);
}

function errorAt(file: string, c: Comment, message: string): RegoError {
  return new RegoError("rego_parse_error", message, { file, row: c.row, col: c.col });
}

/** The block's location: its `METADATA` comment, spanning to the end of its last line. */
function blockLoc(file: string, block: MetadataBlock) {
  const last = block.lines[block.lines.length - 1] ?? block.header;
  const end = last.start + 1 + last.text.length;
  return { file, row: block.header.row, col: block.header.col, start: block.header.start, end };
}
