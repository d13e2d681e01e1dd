/**
 * Signed bundles end to end: `rego build -b --signing-key` and `rego sign` write what
 * `rego run -b --verification-key` accepts, and `run` refuses every tampered bundle with
 * OPA's message and exit 1.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gunzipSync, gzipSync } from "node:zlib";
import { readTar, writeTar } from "../../src/loader/tar.js";
import { tempTree } from "../fixtures.js";
import { eventually, listeningUrl, rego, startRun } from "./cli-harness.js";

function keyFiles(type: "rsa" | "ec") {
  const pair =
    type === "rsa"
      ? generateKeyPairSync("rsa", { modulusLength: 2048 })
      : generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    priv: pair.privateKey.export({ type: type === "rsa" ? "pkcs1" : "sec1", format: "pem" }),
    pub: pair.publicKey.export({ type: "spki", format: "pem" }),
  };
}
const rsa = keyFiles("rsa");
const ec = keyFiles("ec");
const otherRsa = keyFiles("rsa");

const files = tempTree({
  "bundle/.manifest": '{"revision": "v7", "roots": ["authz", "roles"], "metadata": {"team": "a"}}',
  "bundle/authz/policy.rego": 'package authz\n\nallow if data.roles[input.user] == "admin"\n',
  "bundle/roles/data.json": '{"alice": "admin", "bob": "viewer"}',
  "keys/rsa.pem": rsa.priv.toString(),
  "keys/rsa.pub.pem": rsa.pub.toString(),
  "keys/ec.pem": ec.priv.toString(),
  "keys/ec.pub.pem": ec.pub.toString(),
  "keys/other.pub.pem": otherRsa.pub.toString(),
  "keys/hmac.txt": "a shared secret",
  "claims.json": '{"scope": "write", "iss": "ci"}',
  "out/.keep": "",
});
after(() => files.remove());
const at = (p: string) => join(files.dir, p);

/** `rego build -b bundle -o <out> <flags>`. */
const buildBundle = (out: string, ...flags: string[]) =>
  rego(["build", "-b", at("bundle"), "-o", out, ...flags]);

/** `data.authz.allow` for alice, asked of the server at `base`. */
async function allowed(base: string): Promise<unknown> {
  const res = await fetch(`${base}/v1/data/authz/allow`, {
    method: "POST",
    body: JSON.stringify({ input: { user: "alice" } }),
  });
  return ((await res.json()) as { result?: unknown }).result;
}

/** Runs `rego run --server ...`: the exit code if it stops by itself, else a decision. */
async function serve(args: string[]): Promise<{ code: number; stderr: string; allow?: unknown }> {
  const run = startRun(["--server", "--addr", "127.0.0.1:0", ...args]);
  const first = await Promise.race([run.url, run.done]);
  if (typeof first === "number") return { code: first, stderr: run.out.stderr };
  const allow = await allowed(first);
  run.stop();
  return { code: await run.done, stderr: run.out.stderr, allow };
}

function token(signaturesJson: string): { header: unknown; payload: Record<string, unknown> } {
  const jwt = JSON.parse(signaturesJson).signatures[0] as string;
  const [h, p] = jwt.split(".") as [string, string];
  return {
    header: JSON.parse(Buffer.from(h, "base64url").toString()),
    payload: JSON.parse(Buffer.from(p, "base64url").toString()),
  };
}

function tarFiles(path: string): Map<string, Buffer> {
  return new Map(readTar(gunzipSync(readFileSync(path))).map((e) => [e.name, e.content]));
}

/** Rewrites a built bundle with `change` applied to its files. */
function rewrite(from: string, to: string, change: (m: Map<string, Buffer>) => void): string {
  const m = tarFiles(at(from));
  change(m);
  writeFileSync(at(to), gzipSync(writeTar([...m].map(([name, content]) => ({ name, content })))));
  return at(to);
}

describe("rego build --signing-key and rego run --verification-key", () => {
  for (const [alg, priv, pub] of [
    ["RS256", "keys/rsa.pem", "keys/rsa.pub.pem"],
    ["ES256", "keys/ec.pem", "keys/ec.pub.pem"],
    ["HS256", "keys/hmac.txt", "keys/hmac.txt"],
  ] as const) {
    it(`round-trips a ${alg} signed bundle`, async () => {
      const out = at(`out/${alg}.tar.gz`);
      const build = await buildBundle(out, "--signing-key", at(priv), "--signing-alg", alg);
      assert.equal(build.code, 0, build.stderr);
      const m = tarFiles(out);
      const t = token((m.get("/.signatures.json") as Buffer).toString());
      assert.deepEqual(t.header, { alg, kid: "default" });
      assert.equal(t.payload.keyid, "default");
      assert.deepEqual(
        (t.payload.files as { name: string }[]).map((f) => f.name),
        ["authz/policy.rego", "data.json", ".manifest"],
      );
      const ok = await serve(["-b", out, "--verification-key", at(pub), "--signing-alg", alg]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(ok.allow, true);
    });
  }

  it("carries the input .manifest over, -r overriding its revision", async () => {
    const out = at("out/manifest.tar.gz");
    assert.equal((await buildBundle(out)).code, 0);
    const manifest = JSON.parse((tarFiles(out).get("/.manifest") as Buffer).toString());
    assert.deepEqual(manifest, {
      revision: "v7",
      roots: ["authz", "roles"],
      rego_version: 1,
      metadata: { team: "a" },
    });
    const again = at("out/manifest2.tar.gz");
    assert.equal((await buildBundle(again, "-r", "v8")).code, 0);
    assert.equal(
      JSON.parse((tarFiles(again).get("/.manifest") as Buffer).toString()).revision,
      "v8",
    );
    const warned = await rego(["build", at("bundle"), "-o", at("out/plain.tar.gz")]);
    assert.match(
      warned.stderr,
      /Warning: \.manifest file found in ".*bundle" but -b flag not specified/,
    );
  });

  it("puts the claims file into the payload, so its scope must match", async () => {
    const out = at("out/claims.tar.gz");
    const build = await buildBundle(
      out,
      "--signing-key",
      at("keys/rsa.pem"),
      "--claims-file",
      at("claims.json"),
    );
    assert.equal(build.code, 0, build.stderr);
    const t = token((tarFiles(out).get("/.signatures.json") as Buffer).toString());
    assert.deepEqual(t.header, { alg: "RS256" });
    assert.equal(t.payload.scope, "write");
    assert.equal(t.payload.iss, "ci");
    assert.equal(t.payload.keyid, undefined);
    const key = ["--verification-key", at("keys/rsa.pub.pem")];
    const wrong = await serve(["-b", out, ...key]);
    assert.equal(wrong.code, 1);
    assert.equal(wrong.stderr, `error: load error: bundle ${out}: scope mismatch\n`);
    const right = await serve(["-b", out, ...key, "--scope", "write"]);
    assert.equal(right.allow, true, right.stderr);
  });

  it("verifies input bundles while building, and refuses bad flag combinations", async () => {
    const signed = at("out/RS256.tar.gz");
    const key = ["--verification-key", at("keys/rsa.pub.pem")];
    const ok = await rego(["build", "-b", signed, "-o", at("out/rebuilt.tar.gz"), ...key]);
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await rego([
      "build",
      "-b",
      signed,
      "-o",
      at("out/x.tar.gz"),
      "--verification-key",
      at("keys/other.pub.pem"),
    ]);
    assert.equal(bad.code, 1);
    assert.equal(
      bad.stderr,
      `error: load error: bundle ${signed}: failed to verify message: crypto/rsa: verification error\n`,
    );
    const noKey = await rego(["build", "-b", signed, "-o", at("out/x.tar.gz")]);
    assert.equal(
      noKey.stderr,
      `error: load error: bundle ${signed}: verification key not provided\n`,
    );
    const noB = await rego(["build", at("bundle"), "--signing-key", at("keys/rsa.pem")]);
    assert.equal(noB.code, 1);
    assert.equal(
      noB.stderr,
      "error: enable bundle mode (ie. --bundle) to verify or sign bundle files or directories\n",
    );
    const claimsOnly = await rego([
      "build",
      "-b",
      at("bundle"),
      "--claims-file",
      at("claims.json"),
    ]);
    assert.match(claimsOnly.stderr, /^error: specify the secret \(HMAC\) or path of the PEM file/);
  });
});

describe("rego run -b refuses tampered bundles", () => {
  const signed = "out/RS256.tar.gz";
  const key = ["--verification-key", at("keys/rsa.pub.pem")];
  const refusedWith = async (path: string, message: string | RegExp, extra = key) => {
    const run = await serve(["-b", path, ...extra]);
    assert.equal(run.code, 1);
    const prefix = `error: load error: bundle ${path}: `;
    assert.ok(run.stderr.startsWith(prefix), run.stderr);
    const rest = run.stderr.slice(prefix.length).trimEnd();
    if (typeof message === "string") assert.equal(rest, message);
    else assert.match(rest, message);
  };

  it("a changed file", async () => {
    const path = rewrite(signed, "out/changed.tar.gz", (m) => {
      m.set("/data.json", Buffer.from('{"roles": {"alice": "admin", "eve": "admin"}}'));
    });
    await refusedWith(
      path,
      /^data\.json: digest mismatch \(want: [0-9a-f]{64}, got: [0-9a-f]{64}\)$/,
    );
  });

  it("an extra file and a missing file", async () => {
    const extra = rewrite(signed, "out/extra.tar.gz", (m) => {
      m.set("/authz/backdoor.rego", Buffer.from("package authz\n\nallow if true\n"));
    });
    await refusedWith(extra, "file authz/backdoor.rego not included in bundle signature");
    const missing = rewrite(signed, "out/missing.tar.gz", (m) => {
      m.delete("/authz/policy.rego");
    });
    await refusedWith(
      missing,
      "file(s) [authz/policy.rego] specified in bundle signatures but not found in the target bundle",
    );
  });

  it("a signature by another key, a wrong key, and a wrong algorithm", async () => {
    const path = at(signed);
    await refusedWith(path, "failed to verify message: crypto/rsa: verification error", [
      "--verification-key",
      at("keys/other.pub.pem"),
    ]);
    await refusedWith(
      path,
      "failed to verify message: invalid key type *rsa.PublicKey. *ecdsa.PublicKey is required",
      [...key, "--signing-alg", "ES256"],
    );
  });

  it("a missing .signatures.json when a key is given, and a signed bundle without a key", async () => {
    const unsigned = rewrite(signed, "out/unsigned.tar.gz", (m) => {
      m.delete("/.signatures.json");
    });
    await refusedWith(unsigned, "bundle missing .signatures.json file");
    await refusedWith(at(signed), "verification key not provided", []);
    const skipped = await serve([
      "-b",
      rewrite(signed, "out/skip.tar.gz", (m) => {
        m.set("/data.json", Buffer.from('{"roles": {"alice": "viewer"}}'));
      }),
      "--skip-verify",
    ]);
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.equal(skipped.allow, undefined, "the changed data is what was loaded");
  });

  it("before the REPL starts, too", async () => {
    const path = at("out/changed.tar.gz");
    const run = await rego(["run", "-b", path, ...key]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^error: load error: bundle .*changed\.tar\.gz: data\.json: digest mismatch/,
    );
  });

  it("needs -b for --verification-key", async () => {
    const run = await serve([at(signed), ...key]);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^error: enable bundle mode \(ie\. --bundle\) to verify bundle files or directories/,
    );
  });
});

describe("rego sign", () => {
  it("writes only .signatures.json, indented by one space, over a directory's files", async () => {
    const dir = at("signed-dir");
    cpSync(at("bundle"), dir, { recursive: true });
    const run = await rego([
      "sign",
      "-b",
      "--signing-key",
      at("keys/ec.pem"),
      "--signing-alg",
      "ES256",
      "-o",
      dir,
      dir,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const text = readFileSync(join(dir, ".signatures.json"), "utf8");
    assert.match(text, /^\{\n "signatures": \[\n {2}"[\w-]+\.[\w-]+\.[\w-]+"\n \]\n\}$/);
    const t = token(text);
    assert.deepEqual(t.header, { alg: "ES256" });
    assert.deepEqual(Object.keys(t.payload), ["files"]);
    const prefix = dir.replace(/^\//, "");
    assert.deepEqual(
      (t.payload.files as { name: string }[]).map((f) => f.name),
      [`${prefix}/.manifest`, `${prefix}/authz/policy.rego`, `${prefix}/roles/data.json`],
    );
    const verify = [
      "-b",
      dir,
      "--verification-key",
      at("keys/ec.pub.pem"),
      "--signing-alg",
      "ES256",
    ];
    const ok = await serve(verify);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.allow, true);
    // Re-signing skips the existing signature; tampering after signing is refused.
    writeFileSync(join(dir, "roles", "data.json"), '{"alice": "viewer"}');
    const bad = await serve(verify);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /roles\/data\.json: digest mismatch/);
    rmSync(dir, { recursive: true });
  });

  it("signs a tarball by its entry names, with the claims file's claims", async () => {
    const tarball = at("out/manifest.tar.gz");
    const run = await rego([
      "sign",
      "--bundle",
      "--signing-key",
      "hmac-secret",
      "--signing-alg",
      "HS512",
      "--claims-file",
      at("claims.json"),
      "-o",
      at("out"),
      tarball,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const t = token(readFileSync(at("out/.signatures.json"), "utf8"));
    assert.deepEqual(t.header, { alg: "HS512" });
    assert.equal(t.payload.scope, "write");
    assert.deepEqual(
      (t.payload.files as { name: string }[]).map((f) => f.name),
      ["data.json", "authz/policy.rego", ".manifest"],
    );
  });

  it("refuses missing flags with OPA's messages", async () => {
    const cases: [string[], string][] = [
      [
        ["sign", "-b", "--signing-key", "k"],
        "specify atleast one path containing policy and/or data files",
      ],
      [
        ["sign", "-b", at("bundle")],
        "specify the secret (HMAC) or path of the PEM file containing the private key (RSA and ECDSA)",
      ],
      [
        ["sign", "--signing-key", "k", at("bundle")],
        "enable bundle mode (ie. --bundle) to sign bundle files or directories",
      ],
    ];
    for (const [argv, message] of cases) {
      const run = await rego(argv);
      assert.equal(run.code, 1, argv.join(" "));
      assert.equal(run.stderr, `error: ${message}\n`);
    }
    const badKey = await rego([
      "sign",
      "-b",
      "--signing-key",
      "not-a-pem",
      "-o",
      at("out"),
      at("bundle"),
    ]);
    assert.equal(badKey.code, 1);
    assert.equal(badKey.stderr, "error: failed to parse PEM block containing the key\n");
    const noClaims = await rego([
      "sign",
      "-b",
      "--signing-key",
      "s",
      "--signing-alg",
      "HS256",
      "--claims-file",
      at("nope.json"),
      "-o",
      at("out"),
      at("bundle"),
    ]);
    assert.equal(noClaims.stderr, `error: open ${at("nope.json")}: no such file or directory\n`);
    const notGzip = await rego([
      "sign",
      "-b",
      "--signing-key",
      "s",
      "--signing-alg",
      "HS256",
      at("claims.json"),
    ]);
    assert.equal(notGzip.code, 1);
    assert.match(notGzip.stderr, /^error: bundle read failed: archive read failed: /);
  });
});

describe("rego run -b --watch", () => {
  it("keeps the last good bundle when a change breaks its signature, and loads it re-signed", async () => {
    const dir = at("watched");
    cpSync(at("bundle"), dir, { recursive: true });
    const sign = ["sign", "-b", "--signing-key", "k", "--signing-alg", "HS256", "-o", dir, dir];
    assert.equal((await rego(sign)).code, 0);
    writeFileSync(join(dir, "README.md"), "not signed, excluded from verification");
    const args = ["-b", dir, "--verification-key", "k", "--signing-alg", "HS256"];
    // Directory bundles name files with the directory's path; a pattern's `*` stops at `/`.
    const verify = [...args, "--exclude-files-verify", `${dir.replace(/^\//, "")}/*.md`];
    const run = startRun(["-s", "-w", "-a", "127.0.0.1:0", ...verify]);
    const base = await listeningUrl(run);
    const allow = () => allowed(base);
    try {
      assert.equal(await allow(), true);
      writeFileSync(join(dir, "roles", "data.json"), '{"alice": "viewer"}');
      await eventually(async () => /digest mismatch/.test(run.out.stderr), "the failed reload");
      assert.match(run.out.stderr, /Reload failed; keeping the last good policies and data/);
      assert.equal(await allow(), true);
      assert.equal((await rego(sign)).code, 0);
      await eventually(async () => (await allow()) === undefined, "the re-signed bundle");
    } finally {
      run.stop();
      await run.done;
      rmSync(dir, { recursive: true });
    }
  });
});
