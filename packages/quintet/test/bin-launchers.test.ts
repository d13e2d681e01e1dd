import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { packageCommands, readManifest, repoRoot } from "./package-commands.js";

const commands = packageCommands();

describe("package commands", () => {
  it("every service and the launcher has its command", () => {
    assert.deepEqual(commands.map((c) => c.command).sort(), [
      "greeter",
      "llmsrv",
      "notes",
      "quintet",
      "rego",
      "vectors",
    ]);
  });

  for (const { dir, command, target } of commands) {
    it(`${command}: the bin is a committed launcher outside dist/ that npm can link at install`, () => {
      assert.ok(!target.startsWith("dist/"), `${command} points into dist/: ${target}`);
      const tracked = spawnSync(
        "git",
        ["ls-files", "--error-unmatch", `packages/${dir}/${target}`],
        {
          cwd: repoRoot,
        },
      );
      assert.equal(tracked.status, 0, `${target} is not committed`);
    });

    it(`${command}: the launcher runs the built CLI (--help exits 0)`, () => {
      const result = spawnSync(
        process.execPath,
        [join(repoRoot, "packages", dir, target), "--help"],
        {
          encoding: "utf8",
        },
      );
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`usage: ${command}`, "i"));
    });

    it(`${command}: without dist/ the launcher says to build and exits 1`, () => {
      const home = mkdtempSync(join(tmpdir(), "quintet-bin-"));
      try {
        mkdirSync(join(home, "bin"));
        copyFileSync(join(repoRoot, "packages", dir, target), join(home, target));
        assert.ok(!existsSync(join(home, "dist")));
        const result = spawnSync(process.execPath, [join(home, target), "--help"], {
          encoding: "utf8",
        });
        assert.equal(result.status, 1);
        assert.match(result.stderr, new RegExp(`^${command}: not built .*run \`npm run build\``));
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });
  }

  it("engines states the tested Node versions in every manifest, this Node among them", () => {
    for (const dir of ["..", ...new Set(commands.map((c) => c.dir)), "kit"]) {
      const manifest = readManifest(dir) as { engines?: { node?: string } };
      assert.equal(manifest.engines?.node, ">=20.17", `engines of ${dir}`);
    }
    // The suite runs under every Node CI uses; each must be one `engines` admits.
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
    assert.ok(major > 20 || (major === 20 && minor >= 17), process.version);
  });
});
