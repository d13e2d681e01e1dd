/**
 * Policy bundles (`.tar.gz`, as `opa build` writes them): `.rego` files are policies with
 * ids `<bundle file>/<path inside>`, `data.json`/`data.yaml` merge at their directory's
 * path, other files (including `.manifest`) are ignored. Writing one is `rego build`.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { stringifyJSON, type Value } from "../value/value.js";
import { parseDataText } from "./data-document.js";
import { readTar, type TarEntry, writeTar } from "./tar.js";

/** What a bundle holds. */
export interface BundleContents {
  modules: { file: string; source: string }[];
  documents: { file: string; path: string[]; value: Value }[];
  /** The `.manifest` roots (`[""]`, every path, when the manifest is absent or names none). */
  roots: string[];
}

/** The roots a `.manifest` declares; OPA defaults a missing list to `[""]`. */
function manifestRoots(text: string): string[] {
  const manifest = JSON.parse(text) as { roots?: unknown };
  const roots = manifest.roots;
  if (roots === undefined || roots === null) return [""];
  if (!Array.isArray(roots) || !roots.every((r) => typeof r === "string")) {
    throw new Error(".manifest: roots must be a list of strings");
  }
  return roots.map((r) => r.replace(/^\/+|\/+$/g, ""));
}

function cleanName(name: string): string {
  return name.replace(/^(\.\/|\/)+/, "");
}

/** Reads a gzipped bundle; throws with the reason when it is corrupt. */
export function readBundle(bundleFile: string, gzipped: Buffer): BundleContents {
  const entries = readTar(gunzipSync(gzipped));
  const out: BundleContents = { modules: [], documents: [], roots: [""] };
  for (const entry of entries) {
    const name = cleanName(entry.name);
    const parts = name.split("/");
    const base = parts.at(-1) ?? "";
    if (name === ".manifest") {
      out.roots = manifestRoots(entry.content.toString("utf8"));
    } else if (name.endsWith(".rego")) {
      out.modules.push({ file: `${bundleFile}/${name}`, source: entry.content.toString("utf8") });
    } else if (base === "data.json" || base === "data.yaml" || base === "data.yml") {
      const file = `${bundleFile}/${name}`;
      out.documents.push({
        file,
        path: parts.slice(0, -1),
        value: parseDataText(base, entry.content.toString("utf8")),
      });
    }
  }
  return out;
}

/** Options of a written bundle. */
export interface BundleSpec {
  /** Policy files: path inside the bundle and source. */
  modules: { path: string; source: string }[];
  /** The merged base document, written as /data.json. */
  data: Value;
  revision: string;
}

/** A gzipped bundle in OPA's layout: /data.json, the policies, /.manifest. */
export function writeBundle(spec: BundleSpec): Buffer {
  const entries: TarEntry[] = [
    { name: "/data.json", content: Buffer.from(stringifyJSON(spec.data)) },
    ...spec.modules.map((m) => ({ name: `/${cleanName(m.path)}`, content: Buffer.from(m.source) })),
    {
      name: "/.manifest",
      content: Buffer.from(
        JSON.stringify({ revision: spec.revision, roots: [""], rego_version: 1 }),
      ),
    },
  ];
  return gzipSync(writeTar(entries));
}
