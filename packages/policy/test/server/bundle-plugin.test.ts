/**
 * The bundle plugin below the CLI: the signature-verification call site, HTTPS services
 * with a test CA (`tls.ca_cert`, `allow_insecure_tls`), and activation's interplay with
 * bundles loaded from files.
 */
import assert from "node:assert/strict";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { PolicyEngine } from "../../src/engine.js";
import type { BundleStatus, PluginLog } from "../../src/plugins/bundle-plugin.js";
import type { BundleVerifier } from "../../src/plugins/bundle-verification.js";
import { parseRuntimeConfig } from "../../src/plugins/config-file.js";
import { PluginRuntime } from "../../src/plugins/plugin-runtime.js";
import { PolicyStore } from "../../src/store/policy-store.js";
import { toJSON, type Value } from "../../src/value/value.js";
import { makePki } from "../test-pki.js";
import { BundleService, bundleFromFiles, simpleBundle, waitFor } from "./bundle-service.js";

const quiet: PluginLog = { info() {}, warn() {}, error() {} };

function storeWith(
  files: Record<string, string> = {},
  bundles: { name: string; roots: string[] }[] = [],
) {
  const engine = new PolicyEngine();
  for (const [file, source] of Object.entries(files)) engine.addModule(file, source);
  engine.compile();
  const policies = Object.entries(files).map(([file, source]) => ({ file, source }));
  return new PolicyStore(engine, policies, bundles);
}

function runtimeFor(store: PolicyStore, config: Record<string, unknown>, extra: object = {}) {
  return new PluginRuntime({
    config: parseRuntimeConfig(config, { cwd: "/nonexistent" }),
    store,
    log: quiet,
    version: "test",
    ...extra,
  });
}

async function statusOf(runtime: PluginRuntime, want: (s: BundleStatus) => boolean) {
  return waitFor("a bundle status", () => {
    const s = runtime.bundles?.statuses().app;
    return s && want(s) ? s : undefined;
  });
}

const FAST = { min_delay_seconds: 0.02, max_delay_seconds: 0.05 };

/**
 * Runs `test` with a started runtime that polls bundle `app` from the service configured
 * as `service`, and stops the runtime afterwards.
 */
async function withAppBundle(
  store: PolicyStore,
  service: Record<string, unknown>,
  test: (runtime: PluginRuntime) => Promise<void>,
): Promise<void> {
  const runtime = runtimeFor(store, {
    services: { s: service },
    bundles: { app: { polling: FAST } },
  });
  runtime.start();
  try {
    await test(runtime);
  } finally {
    await runtime.stop();
  }
}

describe("bundle plugin", () => {
  let service: BundleService;
  before(async () => {
    service = new BundleService();
    await service.listen();
  });
  after(() => service.close());

  it("calls the verifier for bundles configured for signing and activates only when it passes", async () => {
    service.set("/bundles/app", simpleBundle("signed", "package app\n\nallow := true\n"));
    const store = storeWith();
    const seen: string[] = [];
    let accept = false;
    const verify: BundleVerifier = (bundle, verification) => {
      const names = bundle.files.map((f) => f.name).join(",");
      const { keyId, exclude, publicKeys } = verification ?? {};
      const key = publicKeys?.get("k")?.key;
      seen.push(`${bundle.name}:${keyId}:${JSON.stringify(exclude)}:${key}:${names}`);
      if (!accept) throw new Error("signature verification failed");
    };
    const runtime = runtimeFor(
      store,
      {
        services: { s: { url: service.url } },
        keys: { k: { key: "PUBLIC KEY" } },
        bundles: { app: { signing: { keyid: "k", exclude_files: ["x"] }, polling: FAST } },
      },
      {
        verify,
      },
    );
    runtime.start();
    try {
      const refused = await statusOf(runtime, (s) => s.code !== undefined);
      assert.equal(refused.message, "bundle app: signature verification failed");
      assert.equal(store.engine.evalRef(["app", "allow"]), undefined);
      assert.equal(runtime.manager.state("bundle"), "NOT_READY");
      assert.equal(seen[0], 'app:k:["x"]:PUBLIC KEY:data.json,policy.rego,.manifest');
      accept = true;
      await statusOf(runtime, (s) => s.active_revision === "signed");
      assert.equal(store.engine.evalRef(["app", "allow"]), true);
      assert.equal(runtime.manager.state("bundle"), "OK");
    } finally {
      await runtime.stop();
    }
  });

  it("refuses a signed bundle when no verification key is configured, as OPA does", async () => {
    service.set(
      "/bundles/app",
      bundleFromFiles({
        "p.rego": "package p\n\nx := 1\n",
        ".signatures.json": '{"signatures":["x.y.z"]}',
      }),
    );
    const store = storeWith();
    await withAppBundle(store, { url: service.url }, async (runtime) => {
      const s = await statusOf(runtime, (st) => st.code !== undefined);
      assert.equal(s.message, "bundle app: verification key not provided");
      assert.equal(store.engine.evalRef(["p", "x"]), undefined);
    });
  });

  it("records each bundle's manifest and etag at data.system.bundles, as OPA does", async () => {
    service.set(
      "/bundles/app",
      bundleFromFiles(
        {
          "app/p.rego": "package app\n\nrevision := data.system.bundles.app.manifest.revision\n",
        },
        { revision: "r1", roots: ["app"], metadata: { team: "a" } },
      ),
    );
    const store = storeWith();
    await withAppBundle(store, { url: service.url }, async (runtime) => {
      await statusOf(runtime, (st) => st.active_revision === "r1");
      const record = toJSON(store.engine.evalRef(["system", "bundles", "app"]) as Value);
      assert.deepEqual(record, {
        manifest: { revision: "r1", roots: ["app"], metadata: { team: "a" } },
        etag: service.etagOf("/bundles/app"),
      });
      assert.equal(store.engine.evalRef(["app", "revision"]), "r1");
      service.set("/bundles/app", simpleBundle("r2", "package app\n\nallow := true\n"));
      await statusOf(runtime, (st) => st.active_revision === "r2");
      assert.deepEqual(
        toJSON(store.engine.evalRef(["system", "bundles", "app", "manifest"]) as Value),
        { revision: "r2", roots: [""], rego_version: 1 },
      );
    });
  });

  it("refuses a delta bundle rather than reading it as a snapshot", async () => {
    service.set("/bundles/app", simpleBundle("snap", "package app\n\nallow := true\n"));
    const store = storeWith();
    await withAppBundle(store, { url: service.url }, async (runtime) => {
      await statusOf(runtime, (st) => st.active_revision === "snap");
      service.set(
        "/bundles/app",
        bundleFromFiles(
          { "patch.json": '{"data":[{"op":"upsert","path":"/a","value":1}]}' },
          { revision: "delta", roots: [""] },
        ),
      );
      const s = await statusOf(runtime, (st) => st.code !== undefined);
      assert.equal(s.message, "bundle app: delta bundles (patch.json) are not supported");
      assert.equal(s.active_revision, "snap");
      assert.equal(store.engine.evalRef(["app", "allow"]), true);
    });
  });

  it("refuses a bundle whose roots overlap a bundle loaded from files", async () => {
    service.set(
      "/bundles/app",
      bundleFromFiles({ "a/p.rego": "package a\n\nx := 1\n" }, { roots: ["a"] }),
    );
    const store = storeWith({}, [{ name: "local.tar.gz", roots: ["a/b"] }]);
    await withAppBundle(store, { url: service.url }, async (runtime) => {
      const s = await statusOf(runtime, (st) => st.code !== undefined);
      assert.equal(
        s.message,
        "detected overlapping roots in bundle manifest with: [app local.tar.gz]",
      );
    });
  });

  it("refuses a bundle whose rules conflict with policies already loaded, keeping them", async () => {
    service.set(
      "/bundles/app",
      bundleFromFiles(
        { "b/p.rego": "package b\n\nimport data.local.y\n\nx := y\n" },
        { roots: ["b"] },
      ),
    );
    const store = storeWith({ "local.rego": "package local\n\ny := 1\n" });
    await withAppBundle(store, { url: service.url }, async (runtime) => {
      // Depends on a policy from files: compiles together with it.
      await waitFor("activation", () =>
        store.engine.evalRef(["b", "x"]) === 1 ? true : undefined,
      );
      assert.deepEqual(
        store.policies.map((p) => p.file),
        ["local.rego", "app/b/p.rego"],
      );
      service.set(
        "/bundles/app",
        bundleFromFiles({ "b/p.rego": "package b\n\nx := undefined_fn(1)\n" }, { roots: ["b"] }),
      );
      const s = await statusOf(runtime, (st) => st.code !== undefined);
      assert.equal(s.errors?.[0]?.code, "rego_type_error");
      assert.equal(store.engine.evalRef(["b", "x"]), 1);
      assert.equal(store.engine.evalRef(["local", "y"]), 1);
    });
  });
});

describe("bundle plugin over HTTPS", () => {
  const pki = makePki();
  let url = "";
  let server: ReturnType<typeof createServer> | undefined;
  before(async () => {
    const bundle = simpleBundle("tls", "package app\n\nallow := true\n");
    server = createServer({ key: pki.serverKey, cert: pki.serverCert }, (_req, res) => {
      res.writeHead(200, { etag: '"t"' });
      res.end(bundle);
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    pki.remove();
  });

  for (const [name, tls, works] of [
    ["trusts the service through tls.ca_cert", { tls: { ca_cert: "CA" } }, true],
    ["refuses a certificate it cannot verify", {}, false],
    ["accepts any certificate with allow_insecure_tls", { allow_insecure_tls: true }, true],
  ] as const) {
    it(name, async () => {
      const settings = JSON.parse(
        JSON.stringify(tls).replace('"CA"', JSON.stringify(pki.files.ca)),
      );
      const store = storeWith();
      await withAppBundle(store, { url, ...settings }, async (runtime) => {
        const s = await statusOf(
          runtime,
          (st) => st.active_revision !== undefined || st.code !== undefined,
        );
        if (works) {
          assert.equal(s.active_revision, "tls");
          assert.equal(store.engine.evalRef(["app", "allow"]), true);
        } else {
          assert.match(s.message ?? "", /certificate/);
          assert.equal(store.engine.evalRef(["app", "allow"]), undefined);
        }
      });
    });
  }
});
