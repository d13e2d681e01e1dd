/**
 * Notes in table `notes`. Every read and delete is scoped to the owner's email, so one user
 * can never see or remove another user's notes, whatever id they send.
 */
import type { SqlClient } from "@quintet/kit";
import { NotesError } from "../errors.js";

/** A stored note. `id` is a decimal string (the column is a bigint). */
export interface Note {
  readonly id: string;
  readonly owner: string;
  readonly body: string;
  readonly createdAt: Date;
}

/** Storage of notes. */
export interface NoteRepo {
  /** Stores a note for `owner` and returns it. */
  add(owner: string, body: string): Promise<Note>;
  /** The owner's notes, newest first, at most `limit`, skipping the first `offset`. */
  listByOwner(owner: string, limit: number, offset?: number): Promise<Note[]>;
  /** How many notes the owner has. */
  countByOwner(owner: string): Promise<number>;
  /** Deletes the note `id` if `owner` owns it; false when there was no such note of theirs. */
  delete(owner: string, id: string): Promise<boolean>;
}

interface NoteRow {
  id: string;
  owner: string;
  body: string;
  created_at: Date | string;
}

const COLUMNS = "id::text AS id, owner, body, created_at";
/** Ids are bigints; anything else cannot name a note. */
const NOTE_ID = /^[1-9][0-9]{0,17}$/;

function toNote(row: NoteRow): Note {
  const createdAt = row.created_at instanceof Date ? row.created_at : new Date(row.created_at);
  return { id: row.id, owner: row.owner, body: row.body, createdAt };
}

/** A `NoteRepo` over any `SqlClient` driver. */
export function createNoteRepo(db: SqlClient): NoteRepo {
  return {
    async add(owner, body) {
      const result = await db.query<NoteRow>(
        `INSERT INTO notes (owner, body) VALUES ($1, $2) RETURNING ${COLUMNS}`,
        [owner, body],
      );
      const row = result.rows[0];
      if (!row) throw new NotesError("storage_error", "INSERT ... RETURNING returned no row");
      return toNote(row);
    },
    async listByOwner(owner, limit, offset = 0) {
      const result = await db.query<NoteRow>(
        `SELECT ${COLUMNS} FROM notes WHERE owner = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
        [owner, limit, offset],
      );
      return result.rows.map(toNote);
    },
    async countByOwner(owner) {
      const result = await db.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM notes WHERE owner = $1",
        [owner],
      );
      return Number(result.rows[0]?.n ?? 0);
    },
    async delete(owner, id) {
      if (!NOTE_ID.test(id)) return false;
      const result = await db.query("DELETE FROM notes WHERE id = $1 AND owner = $2", [id, owner]);
      return result.rowCount === 1;
    },
  };
}
