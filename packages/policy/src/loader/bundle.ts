/**
 * Policy bundles, as `.tar.gz` files (what `opa build` writes) or directories with the same
 * layout: `.rego` files are policies with ids `<bundle>/<path inside>`, `data.json`/
 * `data.yaml`/`data.yml` merge at their directory's path, `.manifest` gives the revision,
 * roots and metadata, `.signatures.json` the signature; other files are kept (they are
 * signed too) but not loaded. Writing one is `rego build`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { isSignaturesFile, parseSignaturesFile, type SignaturesConfig } from "../bundle/verify.js";
import { stringifyJSON, type Value } from "../value/value.js";
import { parseDataText } from "./data-document.js";
import { readTar, type TarEntry, writeTar } from "./tar.js";

/** A bundle's `.manifest`, as OPA reads it. */
export interface BundleManifest {
  revision: string;
  /** Without leading or trailing slashes; `[""]` (every path) when the manifest names none. */
  roots: string[];
  /** Whether the manifest listed roots itself (OPA writes them back only then). */
  rootsGiven: boolean;
  metadata?: Record<string, unknown>;
  regoVersion?: number;
  fileRegoVersions?: Record<string, number>;
}

/** One file of a bundle. */
export interface BundleEntry {
  /** The name its signature lists it by (tar entry name, or directory path joined). */
  readonly name: string;
  /** Its path inside the bundle, without a leading slash. */
  readonly path: string;
  readonly content: Buffer;
}

/** What a bundle holds. */
export interface BundleContents {
  modules: { file: string; source: string }[];
  documents: { file: string; path: string[]; value: Value }[];
  /** The `.manifest` roots (`[""]`, every path, when the manifest is absent or names none). */
  roots: string[];
  /** Every regular file, in bundle order (`.signatures.json` included). */
  files: BundleEntry[];
  /** The `.manifest`, when the bundle has one. */
  manifest?: BundleManifest;
  /** The `.signatures.json`, when the bundle has one. */
  signatures?: SignaturesConfig;
}

function stringRecord<T>(
  value: unknown,
  what: string,
  ok: (v: unknown) => v is T,
): Record<string, T> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(`.manifest: ${what} must be an object`);
  for (const v of Object.values(value)) if (!ok(v)) throw new Error(`.manifest: bad ${what}`);
  return value as Record<string, T>;
}

/**
 * A manifest as OPA stores it at `data.system.bundles.<name>.manifest` (its Go struct's JSON
 * after defaults: `revision` always, `roots` defaulted to `[""]`, the rest when set). A bundle
 * without a `.manifest` stores `{"revision": "", "roots": [""]}`.
 */
export function storedManifest(manifest: BundleManifest | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    revision: manifest?.revision ?? "",
    roots: manifest?.roots ?? [""],
  };
  if (manifest?.regoVersion !== undefined) out.rego_version = manifest.regoVersion;
  if (manifest?.fileRegoVersions !== undefined) out.file_rego_versions = manifest.fileRegoVersions;
  if (manifest?.metadata !== undefined) out.metadata = manifest.metadata;
  return out;
}

/** Reads a `.manifest`; OPA defaults missing roots to `[""]`. */
export function parseManifest(text: string): BundleManifest {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`bundle load failed on manifest decode: ${(e as Error).message}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new Error("bundle load failed on manifest decode: .manifest must be a JSON object");
  const roots = raw.roots;
  if (roots !== undefined && roots !== null) {
    if (!Array.isArray(roots) || !roots.every((r) => typeof r === "string"))
      throw new Error(".manifest: roots must be a list of strings");
  }
  const revision = raw.revision ?? "";
  if (typeof revision !== "string") throw new Error(".manifest: revision must be a string");
  const manifest: BundleManifest = {
    revision,
    roots: Array.isArray(roots) ? roots.map((r: string) => r.replace(/^\/+|\/+$/g, "")) : [""],
    rootsGiven: Array.isArray(roots),
  };
  if (raw.metadata !== undefined && raw.metadata !== null)
    manifest.metadata = stringRecord(raw.metadata, "metadata", (_v): _v is unknown => true);
  if (raw.rego_version !== undefined && raw.rego_version !== null) {
    if (raw.rego_version !== 0 && raw.rego_version !== 1)
      throw new Error(`unknown bundle rego-version ${String(raw.rego_version)}`);
    manifest.regoVersion = raw.rego_version;
  }
  if (raw.file_rego_versions !== undefined && raw.file_rego_versions !== null)
    manifest.fileRegoVersions = stringRecord(
      raw.file_rego_versions,
      "file_rego_versions",
      (v): v is number => v === 0 || v === 1,
    );
  return manifest;
}

function cleanName(name: string): string {
  return name.replace(/^(\.\/|\/)+/, "");
}

/**
 * The contents of a bundle's files. `label` prefixes policy ids (`<label>/<path>`); the
 * files keep their order.
 */
export function bundleFromEntries(label: string, files: BundleEntry[]): BundleContents {
  const out: BundleContents = { modules: [], documents: [], roots: [""], files };
  for (const entry of files) {
    const name = entry.path;
    const parts = name.split("/");
    const base = parts.at(-1) ?? "";
    if (name === ".manifest") {
      out.manifest = parseManifest(entry.content.toString("utf8"));
      out.roots = out.manifest.roots;
    } else if (isSignaturesFile(name)) {
      // Only verification needs it, and reports a malformed one; loading without it does not.
      try {
        out.signatures = parseSignaturesFile(entry.content);
      } catch {
        out.signatures = undefined;
      }
    } else if (name.endsWith(".rego")) {
      out.modules.push({ file: `${label}/${name}`, source: entry.content.toString("utf8") });
    } else if (base === "data.json" || base === "data.yaml" || base === "data.yml") {
      const file = `${label}/${name}`;
      out.documents.push({
        file,
        path: parts.slice(0, -1),
        value: parseDataText(base, entry.content.toString("utf8")),
      });
    }
  }
  return out;
}

/** The regular files of a gzipped bundle, named as OPA names them. */
export function tarballEntries(gzipped: Buffer): BundleEntry[] {
  return readTar(gunzipSync(gzipped)).map((e) => ({
    name: e.name.replace(/^\//, ""),
    path: cleanName(e.name),
    content: e.content,
  }));
}

/** Reads a gzipped bundle; throws with the reason when it is corrupt. */
export function readBundle(bundleFile: string, gzipped: Buffer): BundleContents {
  return bundleFromEntries(bundleFile, tarballEntries(gzipped));
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * The files of a bundle directory, walked in Go's lexical order. Their signature names
 * are the directory as given joined with the path inside (`foo/bar/data.json` for `foo`),
 * as OPA's directory loader names them.
 */
export function directoryEntries(dir: string): BundleEntry[] {
  const root = posix.normalize(dir.split("\\").join("/"));
  const out: BundleEntry[] = [];
  const visit = (rel: string): void => {
    const entries = readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) =>
      byBytes(a.name, b.name),
    );
    for (const e of entries) {
      const inside = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) visit(inside);
      else if (e.isFile())
        out.push({
          name: posix.join(root, inside).replace(/^\//, ""),
          path: inside,
          content: readFileSync(join(dir, inside)),
        });
    }
  };
  visit("");
  return out;
}

/** Reads a bundle directory. */
export function readBundleDir(dir: string): BundleContents {
  return bundleFromEntries(dir.replace(/\/+$/, ""), directoryEntries(dir));
}

/** Options of a written bundle. */
export interface BundleSpec {
  /** Policy files: path inside the bundle and source. */
  modules: { path: string; source: string }[];
  /** The merged base document, written as /data.json. */
  data: Value;
  revision: string;
  /** Manifest fields carried over from an input bundle (`rego build -b`). */
  manifest?: Pick<BundleManifest, "roots" | "metadata" | "rootsGiven">;
  /** The `.signatures.json` text to include, when signed. */
  signatures?: string;
}

/** The `.manifest` text `rego build` writes (OPA's field order). */
export function manifestText(spec: Pick<BundleSpec, "revision" | "manifest">): string {
  const manifest: Record<string, unknown> = { revision: spec.revision, roots: [""] };
  if (spec.manifest?.rootsGiven) manifest.roots = spec.manifest.roots;
  manifest.rego_version = 1;
  if (spec.manifest?.metadata) manifest.metadata = spec.manifest.metadata;
  return JSON.stringify(manifest);
}

/** The files of a bundle in OPA's layout: /data.json, the policies, /.manifest. */
export function bundleEntries(spec: BundleSpec): TarEntry[] {
  const entries: TarEntry[] = [
    { name: "/data.json", content: Buffer.from(stringifyJSON(spec.data)) },
    ...spec.modules.map((m) => ({ name: `/${cleanName(m.path)}`, content: Buffer.from(m.source) })),
  ];
  if (spec.signatures !== undefined)
    entries.push({ name: "/.signatures.json", content: Buffer.from(spec.signatures) });
  entries.push({ name: "/.manifest", content: Buffer.from(manifestText(spec)) });
  return entries;
}

/** A gzipped bundle in OPA's layout: /data.json, the policies, /.manifest. */
export function writeBundle(spec: BundleSpec): Buffer {
  return gzipSync(writeTar(bundleEntries(spec)));
}
