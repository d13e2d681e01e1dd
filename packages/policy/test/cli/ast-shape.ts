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
      return value;
    }),
  );
}

function isTrue(v: unknown): boolean {
  return (
    typeof v === "object" &&
    v !== null &&
    (v as { type?: string }).type === "scalar" &&
    (v as { value?: unknown }).value === true
  );
}
