import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAccounts } from "../src/auth/accounts.js";
import { createLoginThrottle } from "../src/auth/login-throttle.js";
import { createPasswordHasher, type PasswordHasher } from "../src/auth/password.js";
import { createUserRepo } from "../src/users/user-repo.js";
import { type OpenedStorage, STORAGE_TARGETS } from "./support/storage-targets.js";
import { backHrefOf, errorMessageOf, postForm, useTestApp } from "./support/test-app.js";

const PASSWORD = "long enough pw";
const signupFields = (email: string) => ({ email, password1: PASSWORD, password2: PASSWORD });

for (const target of STORAGE_TARGETS) {
  describe(`sign-up throttling per client address on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target, { NOTES_SIGNUP_MAX_ATTEMPTS: "3" });

    it("refuses the sign-ups of one address past the limit with 429, and no more accounts", async () => {
      const from = (address: string, email: string) =>
        postForm(suite.app, "/signup", signupFields(email), { remoteAddress: address });
      assert.equal((await from("192.0.2.1", "a1@example.com")).statusCode, 200);
      // A duplicate counts too: it asks the database, and would tell who is registered.
      assert.equal((await from("192.0.2.1", "a1@example.com")).statusCode, 409);
      assert.equal((await from("192.0.2.1", "a2@example.com")).statusCode, 200);
      const refused = await from("192.0.2.1", "a3@example.com");
      assert.equal(refused.statusCode, 429);
      assert.match(String(refused.headers["retry-after"]), /^[1-9]\d*$/);
      assert.equal(errorMessageOf(refused.body), "Too many sign-ups, try again in 60 minutes !!!");
      assert.equal(backHrefOf(refused.body), "/signup");
      assert.equal((await from("192.0.2.2", "a3@example.com")).statusCode, 200, "other address");
      const rows = await suite.storage.db.query<{ email_id: string }>(
        "SELECT email_id FROM user_tbl ORDER BY email_id",
      );
      assert.deepEqual(
        rows.rows.map((r) => r.email_id),
        ["a1@example.com", "a2@example.com", "a3@example.com"],
      );
    });

    it("does not count a form refused before the database (400)", async () => {
      for (let i = 0; i < 5; i++) {
        const bad = await postForm(
          suite.app,
          "/signup",
          { email: "nobody" },
          {
            remoteAddress: "192.0.2.9",
          },
        );
        assert.equal(bad.statusCode, 400);
      }
      const ok = await postForm(suite.app, "/signup", signupFields("b@example.com"), {
        remoteAddress: "192.0.2.9",
      });
      assert.equal(ok.statusCode, 200);
    });
  });

  describe(`held-back throttled answers on ${target.name}`, { skip: target.skip }, () => {
    const suite = useTestApp(target, {
      NOTES_SIGNUP_MAX_ATTEMPTS: "1",
      NOTES_THROTTLE_DELAY_MS: "1000",
    });

    it("holds a throttled sign-up's 429 back while a later sign-up is answered", async () => {
      const from = (address: string, email: string) =>
        postForm(suite.app, "/signup", signupFields(email), { remoteAddress: address });
      assert.equal((await from("192.0.2.7", "held1@example.com")).statusCode, 200);
      const events: string[] = [];
      const held = from("192.0.2.7", "held2@example.com").then((refused) => {
        events.push(`throttled ${refused.statusCode}`);
      });
      // Asked after the throttled sign-up, another address's sign-up (the database and a hash
      // on top of the same form handling) is answered first: the 429 waits on its timer.
      const other = await from("192.0.2.8", "other@example.com");
      events.push(`other address ${other.statusCode}`);
      await held;
      assert.deepEqual(events, ["other address 200", "throttled 429"]);
    });
  });

  describe(`duplicate sign-ups on ${target.name}`, { skip: target.skip }, () => {
    let storage: OpenedStorage;
    let hasher: PasswordHasher;
    let hashes = 0;
    before(async () => {
      storage = await target.open();
      const real = createPasswordHasher(4, 2);
      hasher = {
        ...real,
        hash: (password) => {
          hashes++;
          return real.hash(password);
        },
      };
    });
    after(async () => {
      await hasher?.close();
      await storage?.dispose();
    });
    const accounts = () =>
      createAccounts({
        users: createUserRepo(storage.db),
        hasher,
        throttle: createLoginThrottle({ maxFailures: 10, windowSeconds: 600 }),
        signupThrottle: createLoginThrottle({ maxFailures: 1000, windowSeconds: 600 }),
      });
    const form = (email: string) => ({ ...signupFields(email), clientAddress: "192.0.2.1" });

    it("refuses a registered email before hashing the password", async () => {
      const logic = accounts();
      await logic.signup(form("dup@example.com"));
      const before = hashes;
      await assert.rejects(logic.signup(form("dup@example.com")), /Email already registered !!!/);
      assert.equal(hashes, before, "no hash was computed for the duplicate");
    });

    it("creates exactly one account from 12 simultaneous identical sign-ups", async () => {
      const logic = accounts();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, () => logic.signup(form("race@example.com"))),
      );
      const won = outcomes.filter((o) => o.status === "fulfilled");
      const lost = outcomes.filter((o) => o.status === "rejected");
      assert.equal(won.length, 1);
      for (const o of lost) assert.match(String(o.reason), /Email already registered !!!/);
      const rows = await storage.db.query("SELECT 1 FROM user_tbl WHERE email_id = $1", [
        "race@example.com",
      ]);
      assert.equal(rows.rows.length, 1);
    });
  });
}
