/**
 * A parsed module reduced to what it means, for comparing a module with its formatted text:
 * locations and back-references dropped, and the spellings the formatter normalises made
 * equal (`=` and `:=` in rule heads, an explicit `true` value and none, `else` without value).
 */
import type { Module } from "../../src/ast/nodes.js";

const dropped = new Set(["loc", "pkgLoc", "module", "file", "annotations"]);

export function moduleShape(m: Module): unknown {
  return JSON.parse(
    JSON.stringify(m, function (this: Record<string, unknown>, key, value: unknown) {
      if (dropped.has(key)) return undefined;
      if (typeof value === "bigint") return `${value}n`;
      if (key === "assign" && "kind" in this) return undefined;
      if (key === "value" && "kind" in this && isTrue(value)) return undefined;
      if (key === "v0") return undefined;
      // A body of just `true` is a constant rule's: written without a body.
      if (key === "body" && "kind" in this && !this.elseRule && isTrueBody(value)) return [];
      return value;
    }),
  );
}

function isTrueBody(body: unknown): boolean {
  if (!Array.isArray(body) || body.length !== 1) return false;
  const e = body[0] as { type?: string; negated?: boolean; with?: unknown[]; term?: unknown };
  return e.type === "term" && !e.negated && e.with?.length === 0 && isTrue(e.term);
}

function isTrue(v: unknown): boolean {
  return (
    typeof v === "object" &&
    v !== null &&
    (v as { type?: string }).type === "scalar" &&
    (v as { value?: unknown }).value === true
  );
}
