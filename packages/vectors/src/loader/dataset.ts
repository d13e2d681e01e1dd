/**
 * The `|`-delimited dataset: a header row (skipped), then one document per line with the
 * columns title, author, summary. Bad lines (wrong field count, empty summary, a NUL byte,
 * text that is not UTF-8) are reported with their line number, never fatal.
 */
import { open } from "node:fs/promises";
import { DatasetError, messageOf } from "../errors.js";
import { textLines } from "./text-lines.js";

/** One well-formed data row. */
export interface DatasetRow {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly title: string;
  readonly author: string;
  readonly summary: string;
}

/** A line that was skipped, and why. */
export interface RowProblem {
  readonly line: number;
  readonly reason: string;
}

/** The rows of a dataset and the lines that could not be used. */
export interface Dataset {
  readonly rows: DatasetRow[];
  readonly malformed: RowProblem[];
}

const columns = 3;
const fieldNames = ["title", "author", "summary"] as const;

/** Parses one line (1-based `line`): a row, a problem, or undefined for the header or a blank. */
export function parseLine(raw: string, line: number): DatasetRow | RowProblem | undefined {
  if (line === 1 || raw.trim() === "") return undefined;
  const fields = raw.split("|").map((field) => field.trim());
  if (fields.length !== columns) {
    return {
      line,
      reason: `expected ${columns} fields (title|author|summary), found ${fields.length}`,
    };
  }
  // PostgreSQL text cannot hold NUL; one such line would fail its whole batch's transaction.
  const withNul = fields.findIndex((field) => field.includes("\0"));
  if (withNul >= 0) {
    return { line, reason: `the ${fieldNames[withNul]} holds a NUL byte, which text cannot store` };
  }
  const [title, author, summary] = fields as [string, string, string];
  if (summary === "") return { line, reason: "the summary is empty" };
  return { line, title, author, summary };
}

/** Whether a parsed line is a problem rather than a row. */
export function isProblem(item: DatasetRow | RowProblem): item is RowProblem {
  return "reason" in item;
}

/** Splits dataset text into rows; the first line is the header and is skipped. */
export function parseDataset(text: string): Dataset {
  const rows: DatasetRow[] = [];
  const malformed: RowProblem[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const item = parseLine(raw, index + 1);
      if (item) (isProblem(item) ? malformed : rows).push(item as DatasetRow & RowProblem);
    });
  return { rows, malformed };
}

/**
 * Streams a dataset file line by line, so memory does not grow with its size.
 * @throws DatasetError when the file cannot be opened (before anything is yielded) or read.
 */
export async function* streamDataset(path: string): AsyncGenerator<DatasetRow | RowProblem> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw new DatasetError(`cannot read dataset ${path}: ${messageOf(error)}`, { cause: error });
  }
  const stream = handle.createReadStream();
  try {
    for await (const item of textLines(stream)) {
      if ("problem" in item) {
        if (item.line > 1) yield { line: item.line, reason: item.problem };
        continue;
      }
      const raw = item.line === 1 ? item.text.replace(/^\uFEFF/, "") : item.text;
      const parsed = parseLine(raw, item.line);
      if (parsed) yield parsed;
    }
  } catch (error) {
    throw new DatasetError(`cannot read dataset ${path}: ${messageOf(error)}`, { cause: error });
  } finally {
    stream.destroy();
    await handle.close().catch(() => {});
  }
}

/** Counts the well-formed rows and the problem lines of a dataset (a streamed first pass). */
export async function countDataset(path: string): Promise<{ rows: number; malformed: number }> {
  const counts = { rows: 0, malformed: 0 };
  for await (const item of streamDataset(path)) {
    if (isProblem(item)) counts.malformed++;
    else counts.rows++;
  }
  return counts;
}

/** Reads and parses a dataset file. @throws DatasetError when the file cannot be read. */
export async function readDataset(path: string): Promise<Dataset> {
  const rows: DatasetRow[] = [];
  const malformed: RowProblem[] = [];
  for await (const item of streamDataset(path)) {
    if (isProblem(item)) malformed.push(item);
    else rows.push(item);
  }
  return { rows, malformed };
}
