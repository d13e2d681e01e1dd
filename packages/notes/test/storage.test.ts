import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openDatabase } from "../src/db/open-database.js";
import { ensureSchema } from "../src/db/schema.js";
import { createNoteRepo, type NoteRepo } from "../src/notes/note-repo.js";
import { createUserRepo, type UserRepo } from "../src/users/user-repo.js";
import { type OpenedStorage, STORAGE_TARGETS } from "./support/storage-targets.js";

const HASH = `$2b$10$${"a".repeat(53)}`;

for (const target of STORAGE_TARGETS) {
  describe(`repositories on ${target.name}`, { skip: target.skip }, () => {
    let storage: OpenedStorage;
    let users: UserRepo;
    let notes: NoteRepo;
    before(async () => {
      storage = await target.open();
      users = createUserRepo(storage.db);
      notes = createNoteRepo(storage.db);
    });
    after(async () => {
      await storage?.dispose();
    });

    it("creates user_tbl with the spec's columns plus the session version", async () => {
      const columns = await storage.db.query<{
        column_name: string;
        data_type: string;
        max: number;
        nullable: string;
      }>(
        `SELECT column_name, data_type, character_maximum_length AS max, is_nullable AS nullable
           FROM information_schema.columns
          WHERE table_name = 'user_tbl' AND table_schema = current_schema()
          ORDER BY ordinal_position`,
      );
      assert.deepEqual(
        columns.rows.map((c) => [c.column_name, c.data_type, Number(c.max), c.nullable]),
        [
          ["email_id", "character varying", 64, "NO"],
          ["password_hash", "character varying", 64, "NO"],
          ["session_version", "integer", 0, "NO"],
        ],
      );
    });

    it("adds the session version to a user_tbl created before it, keeping the users", async () => {
      const old = await target.open();
      try {
        await old.db.exec(`DROP TABLE notes; DROP TABLE user_tbl;
          CREATE TABLE user_tbl (email_id varchar(64) PRIMARY KEY, password_hash varchar(64) NOT NULL);
          INSERT INTO user_tbl VALUES ('old@example.com', '${HASH}');`);
        await ensureSchema(old.db);
        const oldUsers = createUserRepo(old.db);
        assert.equal(await oldUsers.sessionVersion("old@example.com"), 0);
        await oldUsers.bumpSessionVersion("old@example.com");
        assert.equal(await oldUsers.sessionVersion("old@example.com"), 1);
        assert.equal(await oldUsers.findPasswordHash("old@example.com"), HASH);
      } finally {
        await old.dispose();
      }
    });

    it("runs the schema set-up again without harm (start-up is idempotent)", async () => {
      await ensureSchema(storage.db);
      await ensureSchema(storage.db);
    });

    it("stores a user once and refuses a duplicate without changing the stored hash", async () => {
      assert.equal(await users.create("u@example.com", HASH), true);
      assert.equal(await users.create("u@example.com", `$2b$10$${"b".repeat(53)}`), false);
      assert.equal(await users.findPasswordHash("u@example.com"), HASH);
    });

    it("finds no hash for an unknown email", async () => {
      assert.equal(await users.findPasswordHash("ghost@example.com"), undefined);
    });

    it("refuses an email over 64 characters at the database too", async () => {
      await assert.rejects(users.create("x".repeat(65), HASH));
    });

    it("adds notes and lists them newest first, only the owner's", async () => {
      await users.create("n1@example.com", HASH);
      await users.create("n2@example.com", HASH);
      const first = await notes.add("n1@example.com", "one");
      const second = await notes.add("n1@example.com", "two");
      await notes.add("n2@example.com", "other");
      assert.match(first.id, /^\d+$/);
      assert.ok(first.createdAt instanceof Date);
      const listed = await notes.listByOwner("n1@example.com", 10);
      assert.deepEqual(
        listed.map((n) => n.body),
        ["two", "one"],
      );
      assert.equal(listed[0]?.id, second.id);
      assert.ok(listed.every((n) => n.owner === "n1@example.com"));
    });

    it("limits the listing", async () => {
      const listed = await notes.listByOwner("n1@example.com", 1);
      assert.deepEqual(
        listed.map((n) => n.body),
        ["two"],
      );
    });

    it("deletes a note only for its owner", async () => {
      const note = await notes.add("n1@example.com", "to delete");
      assert.equal(await notes.delete("n2@example.com", note.id), false);
      assert.ok((await notes.listByOwner("n1@example.com", 10)).some((n) => n.id === note.id));
      assert.equal(await notes.delete("n1@example.com", note.id), true);
      assert.equal(await notes.delete("n1@example.com", note.id), false);
    });

    it("treats ids that are not positive integers as no note", async () => {
      for (const id of ["", "x", "0", "-3", "1.5", "1;DROP TABLE notes", "12345678901234567890"]) {
        assert.equal(await notes.delete("n1@example.com", id), false, id);
      }
    });

    it("refuses a note for an owner that is not a registered user", async () => {
      await assert.rejects(notes.add("nobody@example.com", "orphan"));
    });

    it("keeps text exactly, including quotes, markup and non-ASCII", async () => {
      const body = `<b>"'&</b> ünïcødé 📝\nsecond line`;
      const note = await notes.add("n2@example.com", body);
      const listed = await notes.listByOwner("n2@example.com", 10);
      assert.equal(listed.find((n) => n.id === note.id)?.body, body);
    });
  });
}

describe("embedded PGlite in a data directory", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "notes-pglite-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("creates the directory and keeps users and notes across restarts", async () => {
    const dataDir = join(dir, "nested", "notes");
    const first = await openDatabase({ dataDir });
    await createUserRepo(first).create("keep@example.com", HASH);
    await createNoteRepo(first).add("keep@example.com", "survives");
    await first.close();

    const second = await openDatabase({ dataDir });
    try {
      assert.equal(await createUserRepo(second).findPasswordHash("keep@example.com"), HASH);
      const listed = await createNoteRepo(second).listByOwner("keep@example.com", 10);
      assert.deepEqual(
        listed.map((n) => n.body),
        ["survives"],
      );
    } finally {
      await second.close();
    }
  });
});

describe("opening PostgreSQL that does not answer", () => {
  it("refuses a schema name that is not a plain identifier before connecting", async () => {
    await assert.rejects(
      openDatabase({
        databaseUrl: "postgres://postgres@127.0.0.1:1/none",
        schema: "x; DROP TABLE y",
      }),
      /invalid schema name/,
    );
  });

  it("fails with storage_error naming the problem", async () => {
    await assert.rejects(
      openDatabase({ databaseUrl: "postgres://postgres@127.0.0.1:1/none" }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "storage_error");
        assert.match(error.message, /cannot connect to PostgreSQL/);
        return true;
      },
    );
  });
});
