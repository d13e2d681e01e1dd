/**
 * Downloaded bundles through the real signature verifier (src/bundle/verify.ts): a bundle
 * signed with the configured key activates; one whose files changed after signing, or one
 * signed with another key, is refused and the last good bundle keeps serving.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { signaturesFileText, signBundleFiles } from "../../src/bundle/sign.js";
import { PolicyEngine } from "../../src/engine.js";
import type { BundleStatus, PluginLog } from "../../src/plugins/bundle-plugin.js";
import { parseRuntimeConfig } from "../../src/plugins/config-file.js";
import { PluginRuntime } from "../../src/plugins/plugin-runtime.js";
import { PolicyStore } from "../../src/store/policy-store.js";
import { BundleService, bundleFromFiles, waitFor } from "./bundle-service.js";

const quiet: PluginLog = { info() {}, warn() {}, error() {} };
const FAST = { min_delay_seconds: 0.02, max_delay_seconds: 0.05 };
const SECRET = "bundle-signing-secret";

/** A bundle of `files` whose `.signatures.json` is signed over `signedFiles` (default: the same). */
function signedBundle(
  files: Record<string, string>,
  secret = SECRET,
  signedFiles: Record<string, string> = files,
): Buffer {
  const entries = Object.entries(signedFiles).map(([name, text]) => ({
    name,
    content: Buffer.from(text),
  }));
  const token = signBundleFiles(entries, { key: secret, algorithm: "HS256" }, "k");
  return bundleFromFiles({ ...files, ".signatures.json": signaturesFileText(token) });
}

function policy(value: string): Record<string, string> {
  return { "app/policy.rego": `package app\n\nallow := ${value}\n` };
}

describe("signed bundles from a service", () => {
  let service: BundleService;
  let runtime: PluginRuntime;
  let store: PolicyStore;

  before(async () => {
    service = new BundleService();
    await service.listen();
    const engine = new PolicyEngine();
    engine.compile();
    store = new PolicyStore(engine, []);
    runtime = new PluginRuntime({
      config: parseRuntimeConfig(
        {
          services: { s: { url: service.url } },
          keys: { k: { key: SECRET, algorithm: "HS256" } },
          bundles: { app: { signing: { keyid: "k" }, polling: FAST } },
        },
        { cwd: "/nonexistent" },
      ),
      store,
      log: quiet,
      version: "test",
    });
  });
  after(async () => {
    await runtime.stop();
    await service.close();
  });

  const status = (want: (s: BundleStatus) => boolean) =>
    waitFor("a bundle status", () => {
      const s = runtime.bundles?.statuses().app;
      return s && want(s) ? s : undefined;
    });

  it("activates a bundle signed with the configured key", async () => {
    service.set("/bundles/app", signedBundle(policy('"first"')));
    runtime.start();
    await waitFor(
      "activation",
      () => store.engine.evalRef(["app", "allow"]) === "first" || undefined,
    );
    assert.equal((await status((s) => s.code === undefined)).code, undefined);
  });

  it("refuses a bundle changed after signing and keeps the last good one", async () => {
    service.set("/bundles/app", signedBundle(policy('"tampered"'), SECRET, policy('"second"')));
    const s = await status((st) => st.code !== undefined);
    assert.match(s.message ?? "", /^bundle app: .*app\/policy\.rego/);
    assert.equal(store.engine.evalRef(["app", "allow"]), "first");
  });

  it("refuses a bundle signed with another key", async () => {
    service.set("/bundles/app", signedBundle(policy('"other key"'), "another-secret"));
    const s = await status((st) => (st.message ?? "").includes("hmac"));
    assert.match(s.message ?? "", /^bundle app: failed to verify/);
    assert.equal(store.engine.evalRef(["app", "allow"]), "first");
  });

  it("refuses an unsigned bundle when signing is configured", async () => {
    service.set("/bundles/app", bundleFromFiles(policy('"unsigned"')));
    const s = await status((st) => (st.message ?? "").includes(".signatures.json"));
    assert.equal(s.message, "bundle app: bundle missing .signatures.json file");
    assert.equal(store.engine.evalRef(["app", "allow"]), "first");
  });

  it("activates the next correctly signed bundle", async () => {
    service.set("/bundles/app", signedBundle(policy('"second"')));
    await waitFor(
      "activation",
      () => store.engine.evalRef(["app", "allow"]) === "second" || undefined,
    );
  });
});
