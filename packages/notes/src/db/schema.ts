/**
 * Tables of the notes application, created at start-up when absent. `user_tbl` is the spec's
 * user record plus `session_version` (bumped on logout: sessions signed with an older version
 * are refused); `notes` holds each user's notes, owned by the email.
 */
import type { SqlClient } from "@quintet/kit";

/** Longest email (and `email_id` column width), from the spec. */
export const MAX_EMAIL_LENGTH = 64;

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS user_tbl (
  email_id varchar(64) PRIMARY KEY,
  password_hash varchar(64) NOT NULL
);
-- Added after the first release: databases created before it gain the column here.
ALTER TABLE user_tbl ADD COLUMN IF NOT EXISTS session_version integer NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS notes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner varchar(64) NOT NULL REFERENCES user_tbl (email_id) ON DELETE CASCADE,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS notes_owner_created_idx ON notes (owner, created_at DESC, id DESC);
`;

/** Creates the tables and index if they do not exist yet. Safe to run on every start. */
export async function ensureSchema(db: SqlClient): Promise<void> {
  await db.exec(SCHEMA_SQL);
}
