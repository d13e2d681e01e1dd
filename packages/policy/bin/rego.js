#!/usr/bin/env node
// The `rego` command. npm links bins at install time, before dist/ is built, so the bin
// is this committed file: it runs the compiled CLI, or says how to build it.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/src/cli/main.js", import.meta.url);
const cli = fileURLToPath(built);
if (!existsSync(cli)) {
  process.stderr.write(
    `rego: not built (${cli} is missing); run \`npm run build\` in the repository first\n`,
  );
  process.exit(1);
}
// The CLI runs its main only when it is the script Node started; it is, in effect.
process.argv[1] = cli;
await import(built.href);
