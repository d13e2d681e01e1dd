import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { STORAGE_TARGETS } from "./support/storage-targets.js";
import { errorMessageOf, logIn, postForm, useTestApp } from "./support/test-app.js";

const PASSWORD = "rules-password";
const signup = (email: string, password = PASSWORD) => ({
  email,
  password1: password,
  password2: password,
});

/** The value of the email input of the form on a page, HTML entities of `&<>"'` undone. */
function emailValueOf(page: string): string | undefined {
  const raw = /<input type="email"[^>]*name="email"[^>]*value="([^"]*)"/.exec(page)?.[1];
  return raw
    ?.replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

for (const target of STORAGE_TARGETS) {
  describe(`one account per mailbox on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target, { NOTES_SIGNUP_MAX_ATTEMPTS: "1000" });
    const emails = async () =>
      (
        await suite.storage.db.query<{ email_id: string }>(
          "SELECT email_id FROM user_tbl ORDER BY email_id",
        )
      ).rows.map((r) => r.email_id);

    it("stores a trimmed, NFC, lower-case address and refuses its other spellings with 409", async () => {
      const first = await postForm(suite.app, "/signup", signup("  Zoë.Case@Example.COM "));
      assert.equal(first.statusCode, 200);
      assert.deepEqual(await emails(), ["zoë.case@example.com"]);
      for (const spelling of ["zoe\u0308.case@example.com", "ZOË.CASE@EXAMPLE.COM"]) {
        const again = await postForm(suite.app, "/signup", signup(spelling));
        assert.equal(again.statusCode, 409, spelling);
        assert.equal(errorMessageOf(again.body), "Email already registered !!!");
      }
      assert.deepEqual(await emails(), ["zoë.case@example.com"]);
      await logIn(suite.app, "ZOE\u0308.case@example.com", PASSWORD);
    });

    it("refuses look-alike addresses: invisible or bidi characters, a trailing dot", async () => {
      assert.equal(
        (await postForm(suite.app, "/signup", signup("twin@example.com"))).statusCode,
        200,
      );
      const lookAlikes: [string, RegExp][] = [
        ["twin\u200B@example.com", /U\+200B/],
        ["tw\u00ADin@example.com", /U\+00AD/],
        ["twin@exa\u200Cmple.com", /U\+200C/],
        ["\u2060twin@example.com", /U\+2060/],
        ["twin\uFEFF@example.com", /U\+FEFF/],
        ["twin@\u202Emoc.elpmaxe", /U\+202E/],
        ...[
          "\u061C",
          "\u200E",
          "\u200F",
          "\u202A",
          "\u202B",
          "\u202C",
          "\u202D",
          "\u2066",
          "\u2067",
          "\u2068",
          "\u2069",
        ].map((c): [string, RegExp] => [`twin${c}@example.com`, /invisible or direction-changing/]),
        ["twin@example.com.", /domain cannot start or end with a dot/],
        ["twin@example..com", /two dots in a row/],
        ["twin@.example.com", /domain cannot start/],
      ];
      for (const [email, detail] of lookAlikes) {
        const refused = await postForm(suite.app, "/signup", signup(email));
        const label = JSON.stringify(email);
        assert.equal(refused.statusCode, 400, label);
        assert.equal(errorMessageOf(refused.body), "Invalid email !!!", label);
        assert.match(refused.body, detail, label);
      }
      assert.ok(!(await emails()).some((e) => e !== "twin@example.com" && e.includes("twin")));
    });

    it("counts the email's length in characters, as the varchar(64) column does", async () => {
      const astral = `${"😀".repeat(57)}@x.io`;
      assert.equal([...astral].length, 62);
      assert.ok(astral.length > 64, "more than 64 UTF-16 code units");
      assert.equal((await postForm(suite.app, "/signup", signup(astral))).statusCode, 200);
      assert.ok((await emails()).includes(astral));
      const tooLong = `${"😀".repeat(60)}@x.io`;
      const refused = await postForm(suite.app, "/signup", signup(tooLong));
      assert.equal(refused.statusCode, 400);
      assert.equal(errorMessageOf(refused.body), "Invalid email !!!");
    });

    it("still logs in an account stored with upper case before addresses were canonical", async () => {
      const hash = (
        await suite.storage.db.query<{ password_hash: string }>(
          "SELECT password_hash FROM user_tbl WHERE email_id = $1",
          ["zoë.case@example.com"],
        )
      ).rows[0]?.password_hash;
      await suite.storage.db.query(
        "INSERT INTO user_tbl (email_id, password_hash) VALUES ($1, $2)",
        ["Legacy@Example.com", hash],
      );
      await logIn(suite.app, "Legacy@Example.com", PASSWORD);
    });
  });

  describe(`password length and what error pages keep on ${target.name}`, {
    skip: target.skip,
  }, () => {
    const suite = useTestApp(target, { NOTES_SIGNUP_MAX_ATTEMPTS: "1000" });

    it("refuses a password under 8 characters with the password's 400, and takes 8", async () => {
      const short = await postForm(suite.app, "/signup", signup("short@example.com", "1234567"));
      assert.equal(short.statusCode, 400);
      assert.equal(errorMessageOf(short.body), "Invalid password !!!");
      assert.match(short.body, /A password has at least 8 characters\./);
      const eight = await postForm(suite.app, "/signup", signup("eight@example.com", "12345678"));
      assert.equal(eight.statusCode, 200);
    });

    it("shows the minimum on the sign-up form before submitting (minlength and a hint)", async () => {
      const form = (await suite.app.inject({ method: "GET", url: "/signup" })).body;
      assert.match(form, /<input type="password"[^>]*name="password1"[^>]*minlength="8"/);
      assert.match(form, /<input type="password"[^>]*name="password2"[^>]*minlength="8"/);
      assert.match(form, /id="password-hint">At least 8 characters\.</);
    });

    it("keeps what was typed in the email field on sign-up and login error pages", async () => {
      const typed = ` Typed"<me>@example.com `;
      const cases = [
        ["/signup", { email: typed, password1: "password-1", password2: "password-2" }, 400],
        ["/signup", { email: typed, password1: "short", password2: "short" }, 400],
        ["/signup", signup("eight@example.com"), 409],
        ["/login", { email: typed, password: "whatever-password" }, 401],
        ["/login", { email: typed, password: "" }, 400],
      ] as const;
      for (const [url, fields, status] of cases) {
        const response = await postForm(suite.app, url, fields);
        assert.equal(response.statusCode, status, `${url} ${JSON.stringify(fields)}`);
        assert.equal(emailValueOf(response.body), fields.email, url);
        assert.doesNotMatch(response.body, /password-1|whatever-password/, "no password echoed");
      }
    });
  });
}
