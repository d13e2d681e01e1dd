/**
 * The batch format between the server and an evaluation worker: the jobs of one turn of the
 * event loop go as one JSON text of flat arrays, and the answers of one turn come back the
 * same way. The common decision (a data POST with no metrics, trace or decision log) has a
 * short form whose decision path is sent once per worker and named by a number afterwards,
 * so neither thread writes or reads the path, limits and switches of every request again.
 */
import type { DataJob, EvalJob, JobResult } from "./eval-job.js";
import type { WireError } from "./eval-wire.js";

/** A data POST in short form: id, path number, body, flags, limits, the path when new. */
type PlainDataRecord = [
  id: number,
  form: typeof PLAIN_DATA,
  pathIndex: number,
  body: string,
  flags: number,
  timeoutMs: number | null,
  maxCollectionSize: number | null,
  maxInputDepth: number,
  path?: string[],
];

/** Any other job, as it is. */
type FullJobRecord = [id: number, form: typeof FULL_JOB, job: EvalJob];

export type JobRecord = PlainDataRecord | FullJobRecord;

const PLAIN_DATA = 0;
const FULL_JOB = 1;
const YAML_FLAG = 1;
const STRICT_FLAG = 2;

/** How many decision paths a worker is told of before the numbering starts over. */
const PATHS_KEPT = 1024;

/** True when a data job needs nothing but its value and the missing-input warning. */
function isPlainData(job: EvalJob): job is DataJob & { body: string } {
  if (job.kind !== "data" || job.body === undefined || job.wantInput) return false;
  const { insight } = job;
  return !insight.timed && !insight.instrument && insight.explain === undefined;
}

/** The server's side of one worker's batches: the numbers of the paths that worker knows. */
export class JobEncoder {
  private readonly pathNumbers = new Map<readonly string[], number>();

  /** One JSON text for the jobs, in order. */
  encode(jobs: readonly { readonly id: number; readonly job: EvalJob }[]): string {
    const records: JobRecord[] = [];
    for (const { id, job } of jobs) records.push(this.record(id, job));
    return JSON.stringify(records);
  }

  private record(id: number, job: EvalJob): JobRecord {
    if (!isPlainData(job)) return [id, FULL_JOB, job];
    const { limits } = job;
    const flags = (job.yaml ? YAML_FLAG : 0) | (limits.strict ? STRICT_FLAG : 0);
    const head = [
      id,
      PLAIN_DATA,
      0,
      job.body,
      flags,
      limits.timeoutMs ?? null,
      limits.maxCollectionSize ?? null,
      limits.maxInputDepth,
    ] as PlainDataRecord;
    // Paths are numbered by the array itself: the server keeps one array per request path.
    let index = this.pathNumbers.get(job.path);
    if (index === undefined) {
      if (this.pathNumbers.size >= PATHS_KEPT) this.pathNumbers.clear();
      index = this.pathNumbers.size;
      this.pathNumbers.set(job.path, index);
      head[8] = job.path;
    }
    head[2] = index;
    return head;
  }
}

const PLAIN_INSIGHT = { timed: false, instrument: false, prettyExplain: false } as const;

/**
 * The worker's side: turns records back into jobs. Each distinct path stays one array, which
 * the engine caches its parsed form by.
 */
export class JobDecoder {
  private readonly paths: string[][] = [];

  decode(text: string): { id: number; job: EvalJob }[] {
    const records = JSON.parse(text) as JobRecord[];
    return records.map((r) => ({ id: r[0], job: this.job(r) }));
  }

  private job(r: JobRecord): EvalJob {
    if (r[1] === FULL_JOB) return r[2];
    const [, , index, body, flags, timeoutMs, maxCollectionSize, maxInputDepth, path] = r;
    if (path) this.paths[index] = path;
    const known = this.paths[index];
    if (!known) throw new Error(`evaluation worker: unknown decision path ${index}`);
    return {
      kind: "data",
      path: known,
      body,
      yaml: (flags & YAML_FLAG) !== 0,
      wantInput: false,
      limits: {
        timeoutMs: timeoutMs ?? undefined,
        maxCollectionSize: maxCollectionSize ?? undefined,
        maxInputDepth,
        strict: (flags & STRICT_FLAG) !== 0,
      },
      insight: PLAIN_INSIGHT,
    };
  }
}

/**
 * An answer: a plain value (JSON text, null when undefined; 1 when the body lacked `input`),
 * any other result as it is, or an error.
 */
export type AnswerRecord =
  | [id: number, form: typeof PLAIN_RESULT, resultText: string | null, missingInputKey?: 1]
  | [id: number, form: typeof FULL_RESULT, result: JobResult]
  | [id: number, form: typeof FAILED, error: WireError];

const PLAIN_RESULT = 0;
const FULL_RESULT = 1;
const FAILED = 2;

/** The answer record of a job's result. */
export function resultRecord(id: number, result: JobResult): AnswerRecord {
  const { resultText, missingInputKey, input, metrics, explanation } = result;
  if (input !== undefined || metrics !== undefined || explanation !== undefined)
    return [id, FULL_RESULT, result];
  const text = resultText ?? null;
  return missingInputKey ? [id, PLAIN_RESULT, text, 1] : [id, PLAIN_RESULT, text];
}

/** The answer record of a job's error. */
export function errorRecord(id: number, error: WireError): AnswerRecord {
  return [id, FAILED, error];
}

/** An answer as the pool settles it: the job's id and its result or error. */
export type Answer =
  | { readonly id: number; readonly result: JobResult; readonly error?: undefined }
  | { readonly id: number; readonly error: WireError; readonly result?: undefined };

/** Reads one answer record. */
export function readAnswer(r: AnswerRecord): Answer {
  switch (r[1]) {
    case PLAIN_RESULT: {
      const result: { resultText?: string; missingInputKey?: boolean } = {};
      if (r[2] !== null) result.resultText = r[2];
      if (r[3] === 1) result.missingInputKey = true;
      return { id: r[0], result };
    }
    case FULL_RESULT:
      return { id: r[0], result: r[2] };
    case FAILED:
      return { id: r[0], error: r[2] };
  }
}
