/**
 * `rego run --server --config-file`: bundles downloaded from a service running inside the
 * test (activation, ETag/304, changes between polls, a service that is down, slow, failing
 * or serving a corrupt bundle, bearer tokens, persistence), `/health?bundles`, the Status
 * API and status uploads, the Config API.
 */
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { tempTree } from "../fixtures.js";
import {
  BundleService,
  bundleFromFiles,
  getJson,
  simpleBundle,
  startServer,
  waitFor,
} from "./bundle-service.js";

const dirs: { remove(): void }[] = [];
after(() => {
  for (const d of dirs) d.remove();
});

/** A temporary directory holding `config.json` with `config`. */
function configFile(config: object): { path: string; dir: string } {
  const tree = tempTree({ "config.json": JSON.stringify(config) });
  dirs.push(tree);
  return { path: join(tree.dir, "config.json"), dir: tree.dir };
}

const FAST = { min_delay_seconds: 0.02, max_delay_seconds: 0.05 };

const policy = (value: string) => `package app\n\nallow := ${value}\n`;

async function decision(url: string): Promise<unknown> {
  return (await getJson(`${url}/v1/data/app/allow`)).body.result;
}

async function bundleStatus(url: string, name = "app"): Promise<Record<string, unknown>> {
  const { status, body } = await getJson(`${url}/v1/status`);
  assert.equal(status, 200);
  return body.result.bundles[name];
}

function serviceConfig(service: BundleService, extra: object = {}, bundle: object = {}) {
  return {
    services: { acme: { url: service.url } },
    bundles: { app: { service: "acme", resource: "/bundles/app", polling: FAST, ...bundle } },
    status: { console: false, service: "acme" },
    ...extra,
  };
}

describe("bundles from a service", () => {
  it("activates the first bundle, reports it, and is healthy only once activated", async () => {
    const service = new BundleService();
    await service.listen();
    service.mode = "fail";
    const config = configFile(serviceConfig(service));
    const rego = await startServer(["-c", config.path]);
    try {
      await waitFor(
        "a failed download",
        () => service.requests.some((r) => r.status === 500) || undefined,
      );
      const before = await getJson(`${rego.url}/health?bundles`);
      assert.equal(before.status, 500);
      assert.deepEqual(before.body, { error: "one or more bundles are not activated" });
      const legacy = await getJson(`${rego.url}/health?bundle=true`);
      assert.equal(legacy.status, 500);
      assert.equal((await getJson(`${rego.url}/health`)).status, 200);
      const failing = await waitFor("an error status", async () => {
        const s = await bundleStatus(rego.url);
        return s.code ? s : undefined;
      });
      assert.equal(failing.code, "bundle_error");
      assert.equal(failing.message, "server replied with Internal Server Error");
      assert.equal(failing.http_code, 500);
      assert.equal(failing.last_successful_activation, "0001-01-01T00:00:00Z");

      service.set("/bundles/app", simpleBundle("r1", policy("true")));
      service.mode = "ok";
      await waitFor("activation", async () => (await decision(rego.url)) === true || undefined);
      const after = await getJson(`${rego.url}/health?bundles`);
      assert.equal(after.status, 200);
      assert.deepEqual(after.body, {});
      const s = await bundleStatus(rego.url);
      assert.equal(s.name, "app");
      assert.equal(s.active_revision, "r1");
      assert.equal(s.code, undefined);
      assert.equal(s.http_code, undefined);
      for (const field of [
        "last_successful_activation",
        "last_successful_download",
        "last_successful_request",
        "last_request",
      ]) {
        assert.match(String(s[field]), /^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, field);
      }
      // The bundle owns every path ([""] roots): API writes are refused.
      const put = await fetch(`${rego.url}/v1/data/x`, { method: "PUT", body: "1" });
      assert.equal(put.status, 400);
      assert.equal(
        ((await put.json()) as { message: string }).message,
        'all paths owned by bundle "app"',
      );
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("sends the last ETag as If-None-Match, keeps the bundle on 304, takes a changed one", async () => {
    const service = new BundleService();
    await service.listen();
    service.set("/bundles/app", simpleBundle("r1", policy("1")));
    const rego = await startServer(["-c", configFile(serviceConfig(service)).path]);
    try {
      await waitFor("r1", async () => (await decision(rego.url)) === 1 || undefined);
      await waitFor("a 304", () =>
        service.requests.some((r) => r.status === 304 && r.headers["if-none-match"] === '"v1"')
          ? true
          : undefined,
      );
      assert.equal((await bundleStatus(rego.url)).active_revision, "r1");
      service.set("/bundles/app", simpleBundle("r2", policy("2")));
      await waitFor("r2", async () => (await decision(rego.url)) === 2 || undefined);
      assert.equal((await bundleStatus(rego.url)).active_revision, "r2");
      await waitFor("a 304 for r2", () =>
        service.requests.some((r) => r.status === 304 && r.headers["if-none-match"] === '"v2"')
          ? true
          : undefined,
      );
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("keeps the last good bundle when the next one is corrupt or does not compile", async () => {
    const service = new BundleService();
    await service.listen();
    service.set("/bundles/app", simpleBundle("good", policy('"good"')));
    const rego = await startServer(["-c", configFile(serviceConfig(service)).path]);
    try {
      await waitFor("good", async () => (await decision(rego.url)) === "good" || undefined);
      service.set("/bundles/app", Buffer.from("this is not a gzipped tarball"));
      const corrupt = await waitFor("a corrupt-bundle error", async () => {
        const s = await bundleStatus(rego.url);
        return s.code === "bundle_error" ? s : undefined;
      });
      assert.match(String(corrupt.message), /^bundle app: /);
      assert.equal(corrupt.active_revision, "good");
      assert.equal(await decision(rego.url), "good");

      service.set("/bundles/app", simpleBundle("broken", "package app\n\nallow := := 1\n"));
      const broken = await waitFor("a parse error", async () => {
        const s = await bundleStatus(rego.url);
        return Array.isArray(s.errors) ? s : undefined;
      });
      assert.equal(broken.message, "error(s) occurred while compiling module(s)");
      const errors = broken.errors as unknown as { code: string; location?: { file: string } }[];
      assert.equal(errors[0]?.code, "rego_parse_error");
      assert.equal(errors[0]?.location?.file, "app/policy.rego");
      assert.equal(broken.active_revision, "good");
      assert.equal(await decision(rego.url), "good");
      // And a good bundle after bad ones is taken again.
      service.set("/bundles/app", simpleBundle("fixed", policy('"fixed"')));
      await waitFor("fixed", async () => (await decision(rego.url)) === "fixed" || undefined);
      const fixed = await bundleStatus(rego.url);
      assert.equal(fixed.code, undefined);
      assert.equal(fixed.errors, undefined);
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("starts while the service is down and activates once it is up", async () => {
    const service = new BundleService();
    await service.listen();
    const port = service.port;
    await service.close();
    service.set("/bundles/app", simpleBundle("late", policy('"late"')));
    const rego = await startServer(["-c", configFile(serviceConfig(service)).path]);
    try {
      const down = await waitFor("a connection error", async () => {
        const s = await bundleStatus(rego.url);
        return s.code ? s : undefined;
      });
      assert.match(
        String(down.message),
        new RegExp(`^request failed: Get "${service.url}/bundles/app": connect ECONNREFUSED`),
      );
      assert.equal((await getJson(`${rego.url}/health?bundles`)).status, 500);
      await service.listen(port);
      await waitFor("late", async () => (await decision(rego.url)) === "late" || undefined);
      assert.equal((await getJson(`${rego.url}/health?bundles`)).status, 200);
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("gives up on a service that sends no headers within response_header_timeout_seconds", async () => {
    const service = new BundleService();
    await service.listen();
    service.set("/bundles/app", simpleBundle("r1", policy("true")));
    service.mode = "hang";
    const config = serviceConfig(service);
    (config.services.acme as Record<string, unknown>).response_header_timeout_seconds = 0.1;
    const rego = await startServer(["-c", configFile(config).path]);
    try {
      const slow = await waitFor("a timeout", async () => {
        const s = await bundleStatus(rego.url);
        return s.code ? s : undefined;
      });
      assert.equal(
        slow.message,
        `request failed: Get "${service.url}/bundles/app": net/http: timeout awaiting response headers`,
      );
      // Several attempts: each one timed out and polling went on.
      await waitFor("retries", () => (service.requests.length >= 3 ? true : undefined));
      service.mode = "ok";
      await waitFor("activation", async () => (await decision(rego.url)) === true || undefined);
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("stops promptly while a download waits on a service without a header timeout", {
    timeout: 60_000,
  }, async () => {
    const service = new BundleService();
    await service.listen();
    service.mode = "hang";
    const config = serviceConfig(service);
    (config.services.acme as Record<string, unknown>).response_header_timeout_seconds = 0;
    const rego = await startServer(["-c", configFile(config).path]);
    try {
      await waitFor("a hanging request", () => (service.requests.length > 0 ? true : undefined));
    } finally {
      // Resolves only because stopping cuts the request in flight.
      assert.equal(await rego.stop(), 0);
      await service.close();
    }
  });

  it("sends the bearer token and headers; without the token the service answers 401", async () => {
    const service = new BundleService();
    await service.listen();
    service.token = "s3cret";
    service.set("/bundles/app", simpleBundle("r1", policy("true")));
    const without = await startServer(["-c", configFile(serviceConfig(service)).path]);
    try {
      const refused = await waitFor("a 401", async () => {
        const s = await bundleStatus(without.url);
        return s.http_code ? s : undefined;
      });
      assert.equal(refused.http_code, 401);
      assert.equal(refused.message, "server replied with Unauthorized");
    } finally {
      await without.stop();
    }
    const tokenDir = tempTree({ token: "s3cret\n" });
    dirs.push(tokenDir);
    for (const bearer of [{ token: "s3cret" }, { token_path: join(tokenDir.dir, "token") }]) {
      const config = serviceConfig(service);
      config.services.acme = {
        url: service.url,
        headers: { "X-Tenant": "t1" },
        credentials: { bearer },
      } as never;
      const rego = await startServer(["-c", configFile(config).path]);
      try {
        await waitFor("activation", async () => (await decision(rego.url)) === true || undefined);
        const last = service.requests.filter((r) => r.path === "/bundles/app").at(-1);
        assert.equal(last?.headers["x-tenant"], "t1");
        // The Config API shows the service without its credentials.
        const shown = await getJson(`${rego.url}/v1/config`);
        assert.equal(shown.status, 200);
        assert.deepEqual(shown.body.result.services.acme, {
          url: service.url,
          headers: { "X-Tenant": "t1" },
        });
        assert.equal(shown.body.result.default_decision, "/system/main");
        assert.equal(shown.body.result.default_authorization_decision, "/system/authz/allow");
        assert.equal(typeof shown.body.result.labels.id, "string");
        assert.doesNotMatch(JSON.stringify(shown.body), /s3cret/);
      } finally {
        await rego.stop();
      }
    }
    await service.close();
  });

  it("persists the activated bundle and serves it after a restart with the service down", async () => {
    const service = new BundleService();
    await service.listen();
    service.set("/bundles/app", simpleBundle("kept", policy('"kept"')));
    const persistDir = tempTree({});
    dirs.push(persistDir);
    const config = configFile(
      serviceConfig(service, { persistence_directory: persistDir.dir }, { persist: true }),
    );
    const first = await startServer(["-c", config.path]);
    try {
      await waitFor("kept", async () => (await decision(first.url)) === "kept" || undefined);
    } finally {
      await first.stop();
    }
    const file = join(persistDir.dir, "bundles", "app", "bundle.tar.gz");
    assert.ok(existsSync(file), "bundle.tar.gz written below persistence_directory");
    await service.close();
    const second = await startServer(["-c", config.path]);
    try {
      // Activated from disk before any download could succeed.
      assert.equal((await getJson(`${second.url}/health?bundles`)).status, 200);
      assert.equal(await decision(second.url), "kept");
      const s = await bundleStatus(second.url);
      assert.equal(s.active_revision, "kept");
      assert.equal(s.last_successful_download, "0001-01-01T00:00:00Z");
    } finally {
      await second.stop();
    }
  });

  it("replaces only the bundle's roots: API data elsewhere stays, writes inside are refused", async () => {
    const service = new BundleService();
    await service.listen();
    const rooted = (value: number, revision: string) =>
      bundleFromFiles(
        {
          "app/policy.rego": "package app\n\nallow := data.app.config.level > 1\n",
          "app/config/data.json": JSON.stringify({ level: value }),
        },
        { revision, roots: ["app"] },
      );
    service.set("/bundles/app", rooted(2, "a"));
    const rego = await startServer(["-c", configFile(serviceConfig(service)).path]);
    try {
      await waitFor("a", async () => (await decision(rego.url)) === true || undefined);
      const put = await fetch(`${rego.url}/v1/data/other`, { method: "PUT", body: '{"k": 1}' });
      assert.equal(put.status, 204);
      const inside = await fetch(`${rego.url}/v1/data/app/x`, { method: "PUT", body: "1" });
      assert.equal(inside.status, 400);
      assert.equal(
        ((await inside.json()) as { message: string }).message,
        'path app/x is owned by bundle "app"',
      );
      service.set("/bundles/app", rooted(0, "b"));
      await waitFor("b", async () => (await decision(rego.url)) === false || undefined);
      assert.deepEqual((await getJson(`${rego.url}/v1/data/other`)).body.result, { k: 1 });
      // A bundle with contents outside its roots is refused whole.
      service.set(
        "/bundles/app",
        bundleFromFiles({ "x/data.json": "{}" }, { revision: "c", roots: ["app"] }),
      );
      const refused = await waitFor("a roots error", async () => {
        const s = await bundleStatus(rego.url);
        return s.code ? s : undefined;
      });
      assert.equal(
        refused.message,
        "manifest roots [app] do not permit data at path '/x' (hint: check bundle directory structure)",
      );
      assert.equal(refused.active_revision, "b");
    } finally {
      await rego.stop();
      await service.close();
    }
  });
});

describe("long polling and retries", () => {
  it("long-polls a service that answers as one: a change is taken at once", async () => {
    const service = new BundleService();
    await service.listen();
    service.longPoll = true;
    service.set("/bundles/app", simpleBundle("r1", policy("1")));
    // Polling delays of minutes: only the long poll can bring r2 in while the test waits.
    const slowPolling = {
      min_delay_seconds: 300,
      max_delay_seconds: 600,
      long_polling_timeout_seconds: 30,
    };
    const config = serviceConfig(service, {}, { polling: slowPolling });
    const rego = await startServer(["-c", configFile(config).path]);
    try {
      await waitFor("r1", async () => (await decision(rego.url)) === 1 || undefined);
      const held = await waitFor("a held long poll", () =>
        service.requests.find((r) => r.headers["if-none-match"] === '"v1"' && r.status === 0),
      );
      assert.equal(held.headers.prefer, "modes=snapshot;wait=30");
      service.set("/bundles/app", simpleBundle("r2", policy("2")));
      await waitFor("r2", async () => (await decision(rego.url)) === 2 || undefined);
      assert.equal((await bundleStatus(rego.url)).active_revision, "r2");
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("falls back to polling when the service does not answer as a long-polling one", async () => {
    const service = new BundleService();
    await service.listen();
    service.set("/bundles/app", simpleBundle("r1", policy("1")));
    const polling = { ...FAST, long_polling_timeout_seconds: 30 };
    const rego = await startServer([
      "-c",
      configFile(serviceConfig(service, {}, { polling })).path,
    ]);
    try {
      const downloads = () => service.requests.filter((r) => r.path === "/bundles/app");
      await waitFor("a second download", () => (downloads().length >= 2 ? true : undefined));
      assert.equal(downloads()[0]?.headers.prefer, "modes=snapshot;wait=30");
      assert.equal(downloads()[1]?.headers.prefer, "modes=snapshot");
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("forgets the ETag after a failure, so the next answer is a full download", async () => {
    const service = new BundleService();
    await service.listen();
    service.set("/bundles/app", simpleBundle("r1", policy("1")));
    const rego = await startServer(["-c", configFile(serviceConfig(service)).path]);
    try {
      const downloads = () => service.requests.filter((r) => r.path === "/bundles/app");
      await waitFor("a 304", () => downloads().some((r) => r.status === 304) || undefined);
      service.mode = "fail";
      const failedAt = await waitFor("a failure", () => {
        const i = downloads().findIndex((r) => r.status === 500);
        return i >= 0 ? i : undefined;
      });
      service.mode = "ok";
      const next = await waitFor("a request after the failure", () =>
        downloads()
          .slice(failedAt + 1)
          .find((r) => r.status !== 500 && r.status !== 0),
      );
      assert.equal(next.headers["if-none-match"], undefined);
      assert.equal(next.status, 200);
    } finally {
      await rego.stop();
      await service.close();
    }
  });
});

describe("bundles beside --watch", () => {
  it("keeps the downloaded bundle active when watched files are reloaded", async () => {
    const service = new BundleService();
    await service.listen();
    service.set(
      "/bundles/app",
      bundleFromFiles({ "app/p.rego": policy("data.local.v") }, { revision: "w", roots: ["app"] }),
    );
    const tree = tempTree({ "local.rego": "package local\n\nv := 1\n" });
    dirs.push(tree);
    const config = configFile(serviceConfig(service));
    const rego = await startServer(["--watch", "-c", config.path, tree.dir]);
    try {
      await waitFor("activation", async () => (await decision(rego.url)) === 1 || undefined);
      writeFileSync(join(tree.dir, "local.rego"), "package local\n\nv := 2\n");
      // The reload rebuilds from files; the bundle (served 304 from now on) stays active.
      await waitFor("the reload", async () => (await decision(rego.url)) === 2 || undefined);
      assert.equal((await bundleStatus(rego.url)).active_revision, "w");
      const put = await fetch(`${rego.url}/v1/data/app/x`, { method: "PUT", body: "1" });
      assert.equal(put.status, 400);
    } finally {
      await rego.stop();
      await service.close();
    }
  });
});

describe("status plugin and Status API", () => {
  it("uploads status reports to <service>/status and logs them with status.console", async () => {
    const service = new BundleService();
    await service.listen();
    service.set("/bundles/app", simpleBundle("r1", policy("true")));
    const config = serviceConfig(service, {
      labels: { region: "west" },
      status: { service: "acme", console: true, partition_name: "p1" },
    });
    const rego = await startServer(["-c", configFile(config).path]);
    try {
      const report = await waitFor("a report with r1", () =>
        service.statusReports.find(
          (r) =>
            (r.body.bundles as Record<string, { active_revision?: string }>)?.app
              ?.active_revision === "r1",
        ),
      );
      assert.equal(report.path, "/status/p1");
      const labels = report.body.labels as Record<string, string>;
      assert.equal(labels.region, "west");
      assert.match(labels.id ?? "", /^[0-9a-f-]{36}$/);
      assert.equal(typeof labels.version, "string");
      const plugins = report.body.plugins as Record<string, { state: string }>;
      assert.equal(plugins.bundle?.state, "OK");
      assert.equal(plugins.status?.state, "OK");
      const api = await getJson(`${rego.url}/v1/status`);
      assert.equal(api.status, 200);
      assert.deepEqual(api.body.result.labels, labels);
      assert.deepEqual(Object.keys(api.body.result), ["labels", "bundles", "plugins"]);
      await waitFor("a console status line", () =>
        rego.out.stderr.includes('"msg":"Status Log"') ? true : undefined,
      );
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("answers 500 internal_error when the status plugin is not configured", async () => {
    const rego = await startServer([]);
    try {
      const res = await getJson(`${rego.url}/v1/status`);
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { code: "internal_error", message: "status plugin not enabled" });
      const config = await getJson(`${rego.url}/v1/config`);
      assert.equal(config.status, 200);
      assert.equal(config.body.result.default_decision, "/system/main");
      assert.equal((await fetch(`${rego.url}/v1/status/x`)).status, 404);
      assert.equal((await fetch(`${rego.url}/v1/status`, { method: "POST" })).status, 405);
    } finally {
      await rego.stop();
    }
  });

  it("/health?plugins with exclude-plugin, and /health/<path> sees plugin_state", async () => {
    const service = new BundleService();
    await service.listen();
    service.mode = "fail";
    const tree = tempTree({
      "health.rego":
        'package system.health\n\nlive if input.plugin_state.status == "OK"\n\nready if input.plugins_ready\n',
    });
    dirs.push(tree);
    const rego = await startServer(["-c", configFile(serviceConfig(service)).path, tree.dir]);
    try {
      const down = await getJson(`${rego.url}/health?plugins`);
      assert.equal(down.status, 500);
      assert.deepEqual(down.body, { error: "one or more plugins are not up" });
      const excluded = await getJson(`${rego.url}/health?plugins&exclude-plugin=bundle`);
      assert.equal(excluded.status, 200);
      assert.equal((await getJson(`${rego.url}/health/live`)).status, 200);
      const notReady = await getJson(`${rego.url}/health/ready`);
      assert.equal(notReady.status, 500);
      assert.deepEqual(notReady.body, {
        error: "health check (data.system.health.ready) was undefined",
      });
      service.set(
        "/bundles/app",
        bundleFromFiles({ "app/p.rego": policy("true") }, { roots: ["app"] }),
      );
      service.mode = "ok";
      await waitFor(
        "plugins up",
        async () => (await getJson(`${rego.url}/health?plugins`)).status === 200 || undefined,
      );
      assert.equal((await getJson(`${rego.url}/health/ready`)).status, 200);
    } finally {
      await rego.stop();
      await service.close();
    }
  });
});

describe("configuration files", () => {
  it("reads YAML and applies --set and --set-file over it", async () => {
    const service = new BundleService();
    await service.listen();
    service.set("/bundles/app", simpleBundle("r1", policy("true")));
    service.token = "from-file";
    const tree = tempTree({
      "config.yaml": `services:\n  - name: acme\n    url: ${service.url}\nbundles:\n  app:\n    service: acme\n    resource: bundles/app\n`,
      token: "from-file",
    });
    dirs.push(tree);
    const rego = await startServer([
      "--config-file",
      join(tree.dir, "config.yaml"),
      "--set",
      "bundles.app.polling.min_delay_seconds=0.02,bundles.app.polling.max_delay_seconds=0.05",
      "--set-file",
      `services[0].credentials.bearer.token=${join(tree.dir, "token")}`,
    ]);
    try {
      await waitFor("activation", async () => (await decision(rego.url)) === true || undefined);
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("writes nothing when persist is false", async () => {
    const service = new BundleService();
    await service.listen();
    service.set("/bundles/app", simpleBundle("r1", policy("true")));
    const persistDir = tempTree({});
    dirs.push(persistDir);
    const config = serviceConfig(service, { persistence_directory: persistDir.dir });
    const rego = await startServer(["-c", configFile(config).path]);
    try {
      await waitFor("activation", async () => (await decision(rego.url)) === true || undefined);
      assert.equal(existsSync(join(persistDir.dir, "bundles")), false);
    } finally {
      await rego.stop();
      await service.close();
    }
  });

  it("refuses to start on an unreadable or malformed file", async () => {
    const { failedStart } = await import("./bundle-service.js");
    const missing = await failedStart(["-c", "/nonexistent/config.yaml"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: --config-file \/nonexistent\/config\.yaml: ENOENT/);
    const tree = tempTree({ "bad.yaml": "services: [\n", "list.yaml": "- 1\n" });
    dirs.push(tree);
    const bad = await failedStart(["-c", join(tree.dir, "bad.yaml")]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^error: --config-file .*bad\.yaml: /);
    const list = await failedStart(["-c", join(tree.dir, "list.yaml")]);
    assert.equal(list.code, 1);
    assert.match(list.stderr, /the configuration must be an object/);
    writeFileSync(join(tree.dir, "svc.json"), JSON.stringify({ bundles: { b: { service: "x" } } }));
    const svc = await failedStart(["-c", join(tree.dir, "svc.json")]);
    assert.equal(svc.code, 1);
    assert.equal(
      svc.stderr,
      'error: invalid configuration for bundle "b": service name "x" not found\n',
    );
  });
});
