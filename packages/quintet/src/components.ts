/**
 * The components the launcher knows. Each is either a long-running service (health-checked)
 * or a one-shot job that runs once its dependencies are healthy. A component counts as
 * present when its package's compiled entry point exists.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { LauncherConfig } from "./config.js";
import { grpcProbe, type HealthProbe, httpProbe } from "./health.js";

/** The repository root, resolved from packages/quintet/dist/src/. */
export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

export interface Component {
  name: string;
  kind: "service" | "job";
  /** Script (relative to the repository root) and its arguments, run with this Node. */
  script: string;
  args: string[];
  /** Extra environment for the child, on top of the launcher's own. */
  env: Record<string, string>;
  /** What a person points a client at. */
  url: string;
  /** Services only: when it answers, it is up. */
  probe?: HealthProbe;
  /** Address whose port must be free before start, to fail early with a clear message. */
  listen?: string;
  /** Components that must be healthy first. */
  after: string[];
}

/** Every registered component, in start order. */
export function registeredComponents(config: LauncherConfig): Component[] {
  const modelsUrl = `http://${config.modelsAddr}`;
  return [
    {
      name: "greeter",
      kind: "service",
      script: "packages/greeter/dist/src/cli.js",
      args: ["serve"],
      env: { GREETER_ADDR: config.greeterAddr },
      url: `grpc://${config.greeterAddr}`,
      probe: grpcProbe(config.greeterAddr),
      listen: config.greeterAddr,
      after: [],
    },
    {
      name: "policy",
      kind: "service",
      script: "packages/policy/dist/src/cli/main.js",
      args: ["run", "--server", "--addr", config.policyAddr, "packages/policy/examples"],
      env: {},
      url: `http://${config.policyAddr}`,
      probe: httpProbe(`http://${config.policyAddr}/health`),
      listen: config.policyAddr,
      after: [],
    },
    {
      name: "models",
      kind: "service",
      script: "packages/models/dist/src/cli/main.js",
      args: ["serve", "--ensure-demo"],
      env: { LLMSRV_HOST: config.modelsAddr },
      url: modelsUrl,
      probe: httpProbe(`${modelsUrl}/`),
      listen: config.modelsAddr,
      after: [],
    },
    {
      name: "notes",
      kind: "service",
      script: "packages/notes/dist/src/cli.js",
      args: ["serve"],
      env: { NOTES_ADDR: config.notesAddr },
      url: `http://${config.notesAddr}`,
      probe: httpProbe(`http://${config.notesAddr}/`),
      listen: config.notesAddr,
      after: [],
    },
    {
      name: "vectors",
      kind: "job",
      script: "packages/vectors/dist/src/cli/main.js",
      args: ["load"],
      env: {
        EMBED_BASE_URL: `${modelsUrl}/v1`,
        EMBED_MODEL: "demo:latest",
        EMBED_API_KEY: "quintet",
      },
      url: "(one-shot load into the embedded PGlite store)",
      after: ["models"],
    },
  ];
}

/** Whether the component's compiled entry point exists. */
export function isPresent(component: Component, root = repoRoot): boolean {
  return existsSync(new URL(component.script, `file://${root}`));
}
