/**
 * The `|`-delimited dataset: a header row (skipped), then one document per line with the
 * columns title, author, summary. Bad lines are reported with their line number, never fatal.
 */
import { readFile } from "node:fs/promises";
import { DatasetError, messageOf } from "../errors.js";

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

/** Splits dataset text into rows; the first line is the header and is skipped. */
export function parseDataset(text: string): Dataset {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const rows: DatasetRow[] = [];
  const malformed: RowProblem[] = [];
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (line === 1 || raw.trim() === "") return;
    const fields = raw.split("|").map((field) => field.trim());
    if (fields.length !== columns) {
      malformed.push({
        line,
        reason: `expected ${columns} fields (title|author|summary), found ${fields.length}`,
      });
      return;
    }
    const [title, author, summary] = fields as [string, string, string];
    if (summary === "") {
      malformed.push({ line, reason: "the summary is empty" });
      return;
    }
    rows.push({ line, title, author, summary });
  });
  return { rows, malformed };
}

/** Reads and parses a dataset file. @throws DatasetError when the file cannot be read. */
export async function readDataset(path: string): Promise<Dataset> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new DatasetError(`cannot read dataset ${path}: ${messageOf(error)}`, { cause: error });
  }
  return parseDataset(text);
}
