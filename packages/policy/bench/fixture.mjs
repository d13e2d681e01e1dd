/**
 * The benchmark's policy tree: the example `limits` policy with 1,000 users in data,
 * written to a temporary directory that `rego run --server` can load too.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const USERS = 1000;
const ROLES = ["admin", "manager", "user"];

/** `user_0` … `user_999`: roles in turn, every seventh one inactive. */
export function benchData() {
  const userRoles = {};
  for (let i = 0; i < USERS; i++) {
    userRoles[`user_${i}`] = { role: ROLES[i % ROLES.length], active: i % 7 !== 0 };
  }
  return {
    limits_by_roles: { admin: 10000.5, manager: 5000.25, user: 1000.75 },
    user_roles: userRoles,
  };
}

/** Writes data.json and limits.rego to a new directory; returns its path. */
export function writeBenchTree() {
  const dir = mkdtempSync(join(tmpdir(), "rego-bench-"));
  mkdirSync(join(dir, "policies"));
  const policy = fileURLToPath(new URL("../examples/policies/limits.rego", import.meta.url));
  copyFileSync(policy, join(dir, "policies", "limits.rego"));
  writeFileSync(join(dir, "data.json"), JSON.stringify(benchData()));
  return dir;
}

/** Request inputs cycling through known users, plus one unknown user in ten. */
export function benchInputs(count = 1000) {
  const out = [];
  for (let i = 0; i < count; i++)
    out.push({ name: i % 10 === 9 ? `stranger_${i}` : `user_${(i * 37) % USERS}` });
  return out;
}
