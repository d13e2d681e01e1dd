import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { backHrefOf, errorMessageOf, logIn, postForm, useTestApp } from "./support/test-app.js";

const long = `${"a".repeat(59)}@b.com`; // 65 characters

/** Rows of the spec's sign-up error table, plus the cases the issue adds. */
const ERROR_ROWS: ReadonlyArray<{ name: string; fields: Record<string, string>; message: string }> =
  [
    {
      name: "email missing",
      fields: { password1: "pw", password2: "pw" },
      message: "Invalid email !!!",
    },
    {
      name: "email blank",
      fields: { email: "   ", password1: "pw", password2: "pw" },
      message: "Invalid email !!!",
    },
    {
      name: "email over 64 characters",
      fields: { email: long, password1: "pw", password2: "pw" },
      message: "Invalid email !!!",
    },
    {
      name: "email without @",
      fields: { email: "nobody", password1: "pw", password2: "pw" },
      message: "Invalid email !!!",
    },
    {
      name: "password1 missing",
      fields: { email: "x@example.com", password2: "pw" },
      message: "Invalid password !!!",
    },
    {
      name: "password1 blank",
      fields: { email: "x@example.com", password1: " ", password2: " " },
      message: "Invalid password !!!",
    },
    {
      name: "password1 over 72 bytes",
      fields: { email: "x@example.com", password1: "é".repeat(37), password2: "é".repeat(37) },
      message: "Invalid password !!!",
    },
    {
      name: "password1 differs from password2",
      fields: { email: "x@example.com", password1: "password-1", password2: "password-2" },
      message: "Password confirmation failed !!!",
    },
    {
      name: "password2 missing",
      fields: { email: "x@example.com", password1: "password-1" },
      message: "Password confirmation failed !!!",
    },
    {
      name: "email and password both blank (email is checked first)",
      fields: { email: "", password1: "", password2: "x" },
      message: "Invalid email !!!",
    },
  ];

for (const target of STORAGE_TARGETS) {
  describe(`POST /signup on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target);

    for (const row of ERROR_ROWS) {
      it(`answers "${row.message}" with status 400 and stores nothing when ${row.name}`, async () => {
        const response = await postForm(suite.app, "/signup", row.fields);
        assert.equal(response.statusCode, 400);
        assert.match(response.headers["content-type"] as string, /^text\/html/);
        assert.equal(errorMessageOf(response.body), row.message);
        assert.equal(backHrefOf(response.body), "/signup");
        const count = await suite.storage.db.query<{ n: string }>(
          "SELECT count(*)::text AS n FROM user_tbl",
        );
        assert.equal(count.rows[0]?.n, "0");
      });
    }

    it("stores the user with a 60-character bcrypt hash and returns the welcome page", async () => {
      const response = await postForm(suite.app, "/signup", {
        email: "alice@example.com",
        password1: "correct horse",
        password2: "correct horse",
      });
      assert.equal(response.statusCode, 200);
      assert.match(response.body, /<form method="post" action="\/login"/);
      assert.match(response.body, /href="\/signup"/);
      assert.match(response.body, /Account created for alice@example\.com/);
      const rows = await suite.storage.db.query<{ email_id: string; password_hash: string }>(
        "SELECT email_id, password_hash FROM user_tbl WHERE email_id = $1",
        ["alice@example.com"],
      );
      const hash = rows.rows[0]?.password_hash ?? "";
      assert.equal(hash.length, 60);
      assert.match(hash, /^\$2[aby]\$04\$/);
      assert.doesNotMatch(hash, /correct horse/);
    });

    it("accepts an email of exactly 64 characters", async () => {
      const email = `${"b".repeat(58)}@b.com`;
      assert.equal(email.length, 64);
      const response = await postForm(suite.app, "/signup", {
        email,
        password1: "long-password",
        password2: "long-password",
      });
      assert.equal(response.statusCode, 200);
    });

    it("answers a second sign-up of the same email with 409 and leaves the stored user untouched", async () => {
      const email = "dup@example.com";
      const first = await postForm(suite.app, "/signup", {
        email,
        password1: "first-password",
        password2: "first-password",
      });
      assert.equal(first.statusCode, 200);
      const before = await suite.storage.db.query<{ password_hash: string }>(
        "SELECT password_hash FROM user_tbl WHERE email_id = $1",
        [email],
      );
      const second = await postForm(suite.app, "/signup", {
        email,
        password1: "second-password",
        password2: "second-password",
      });
      assert.equal(second.statusCode, 409);
      assert.equal(errorMessageOf(second.body), "Email already registered !!!");
      assert.equal(backHrefOf(second.body), "/signup");
      const afterRows = await suite.storage.db.query<{ password_hash: string }>(
        "SELECT password_hash FROM user_tbl WHERE email_id = $1",
        [email],
      );
      assert.deepEqual(afterRows.rows, before.rows);
      await logIn(suite.app, email, "first-password");
      const wrong = await postForm(suite.app, "/login", { email, password: "second-password" });
      assert.equal(errorMessageOf(wrong.body), "Invalid password !!!");
    });

    it("trims spaces around the email, so ' bob@example.com ' logs in as bob@example.com", async () => {
      await postForm(suite.app, "/signup", {
        email: " bob@example.com ",
        password1: "long-password",
        password2: "long-password",
      });
      const rows = await suite.storage.db.query("SELECT 1 FROM user_tbl WHERE email_id = $1", [
        "bob@example.com",
      ]);
      assert.equal(rows.rows.length, 1);
      await logIn(suite.app, "bob@example.com", "long-password");
    });

    it("accepts a JSON body from a non-browser client", async () => {
      const response = await suite.app.inject({
        method: "POST",
        url: "/signup",
        payload: {
          email: "json@example.com",
          password1: "long-password",
          password2: "long-password",
        },
      });
      assert.equal(response.statusCode, 200);
    });

    it("refuses a body in an unsupported encoding with 415 and an error page", async () => {
      const response = await suite.app.inject({
        method: "POST",
        url: "/signup",
        payload: "email=a",
        headers: { "content-type": "application/xml" },
      });
      assert.equal(response.statusCode, 415);
      assert.equal(errorMessageOf(response.body), "Unsupported form encoding !!!");
    });

    it("refuses a body over the size limit with 413", async () => {
      const response = await postForm(suite.app, "/signup", { email: "a".repeat(100_000) });
      assert.equal(response.statusCode, 413);
      assert.equal(errorMessageOf(response.body), "Request body too large !!!");
    });
  });
}
