/**
 * Coverage, as `opa test --coverage` and `opa eval --coverage` report it: a line is covered
 * when an expression on it was evaluated or a rule whose head is on it produced a value.
 * Lines of every other expression (but `some` declarations) and rule head are not covered.
 * Lines are grouped into ranges of consecutive rows; percentages are over those lines.
 */
import type { Body, Expr, Module, Rule, Term } from "../ast/nodes.js";
import { forEachChild } from "../ast/walk.js";
import type { TraceEvent } from "./tracer.js";

interface Position {
  row: number;
}

interface Range {
  start: Position;
  end: Position;
}

/** One file's part of the report; empty fields are left out, as Go's omitempty does. */
export interface FileCoverage {
  covered?: Range[];
  not_covered?: Range[];
  covered_lines?: number;
  not_covered_lines?: number;
  coverage?: number;
}

/** The coverage report (OPA's cover.Report JSON). */
export interface CoverageReport {
  files: Record<string, FileCoverage>;
  covered_lines: number;
  not_covered_lines: number;
  coverage: number;
}

/** Rows as ranges of consecutive rows. */
function toRanges(rows: Iterable<number>): Range[] {
  const sorted = [...new Set(rows)].sort((a, b) => a - b);
  const out: Range[] = [];
  for (const row of sorted) {
    const last = out[out.length - 1];
    if (last && row === last.end.row + 1) last.end = { row };
    else out.push({ start: { row }, end: { row } });
  }
  return out;
}

function lineCount(ranges: readonly Range[]): number {
  return ranges.reduce((n, r) => n + r.end.row - r.start.row + 1, 0);
}

/** Calls `f` on every rule (else branches included) and expression of a module. */
function walkModule(m: Module, onRule: (r: Rule) => void, onExpr: (e: Expr) => void): void {
  const term = (t: Term | undefined): void => {
    if (!t) return;
    if (t.type === "arraycompr" || t.type === "setcompr") {
      term(t.term);
      body(t.body);
    } else if (t.type === "objectcompr") {
      term(t.key);
      term(t.value);
      body(t.body);
    } else if (t.type === "template") {
      for (const p of t.parts) if (typeof p !== "string") expr(p, false);
    } else forEachChild(t, term);
  };
  const expr = (e: Expr, counted: boolean): void => {
    if (counted) onExpr(e);
    if (e.type === "term") term(e.term);
    else if (e.type === "somein") {
      term(e.domain);
    } else if (e.type === "every") {
      term(e.domain);
      body(e.body);
    }
  };
  const body = (b: Body): void => {
    for (const e of b) expr(e, true);
  };
  const rule = (r: Rule): void => {
    onRule(r);
    term(r.key);
    term(r.value);
    body(r.body);
    if (r.elseRule) rule(r.elseRule);
  };
  for (const r of m.rules) rule(r);
}

/** Collects covered lines from trace events; reports against the modules given. */
export class CoverageCollector {
  private readonly hits = new Map<string, Set<number>>();

  /** The trace listener. */
  readonly listener = (event: TraceEvent): void => {
    if (event.op === "Eval" && event.node.kind === "expr") this.hit(event.node.expr.loc);
    else if (event.op === "Exit" && event.node.kind === "rule") this.hit(event.node.rule.loc);
  };

  private hit(loc: { file: string; row: number } | undefined): void {
    if (!loc || loc.file === "" || loc.file === "query") return;
    let rows = this.hits.get(loc.file);
    if (!rows) {
      rows = new Set();
      this.hits.set(loc.file, rows);
    }
    rows.add(loc.row);
  }

  private covered(file: string, row: number): boolean {
    return this.hits.get(file)?.has(row) ?? false;
  }

  /** The report for `modules` (as parsed from the files, not as compiled). */
  report(modules: readonly Module[]): CoverageReport {
    const notCovered = new Map<string, number[]>();
    for (const m of modules) {
      const rows: number[] = [];
      const check = (loc: { file: string; row: number }) => {
        if (loc.file !== "" && !this.covered(loc.file, loc.row)) rows.push(loc.row);
      };
      walkModule(
        m,
        (r) => check(r.loc),
        (e) => {
          if (e.type !== "some") check(e.loc);
        },
      );
      notCovered.set(m.file, [...(notCovered.get(m.file) ?? []), ...rows]);
    }
    const names = [...new Set([...this.hits.keys(), ...notCovered.keys()])].sort();
    const files: Record<string, FileCoverage> = {};
    let coveredTotal = 0;
    let notCoveredTotal = 0;
    for (const name of names) {
      const covered = toRanges(this.hits.get(name) ?? []);
      const missing = toRanges(notCovered.get(name) ?? []);
      const c = lineCount(covered);
      const n = lineCount(missing);
      const fr: FileCoverage = {};
      if (covered.length > 0) fr.covered = covered;
      if (missing.length > 0) fr.not_covered = missing;
      if (c > 0) fr.covered_lines = c;
      if (n > 0) fr.not_covered_lines = n;
      if (c + n > 0 && c > 0) fr.coverage = (100 * c) / (c + n);
      files[name] = fr;
      coveredTotal += c;
      notCoveredTotal += n;
    }
    const total = coveredTotal + notCoveredTotal;
    return {
      files,
      covered_lines: coveredTotal,
      not_covered_lines: notCoveredTotal,
      coverage: total === 0 ? 0 : (100 * coveredTotal) / total,
    };
  }
}

/** OPA's message when coverage is below `--threshold`, with the uncovered lines. */
export function thresholdMessage(report: CoverageReport, threshold: number): string {
  const lines = [
    `Code coverage threshold not met: got ${report.coverage.toFixed(2)} instead of ${threshold.toFixed(2)}`,
  ];
  const missing: string[] = [];
  for (const [file, fr] of Object.entries(report.files)) {
    for (const r of fr.not_covered ?? []) {
      missing.push(
        r.start.row === r.end.row
          ? `\t${file}:${r.start.row}`
          : `\t${file}:${r.start.row}-${r.end.row}`,
      );
    }
  }
  if (missing.length > 0) lines.push("Lines not covered:", ...missing);
  return `${lines.join("\n")}\n`;
}
