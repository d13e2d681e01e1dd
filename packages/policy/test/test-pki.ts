/**
 * A throwaway certificate authority for TLS tests, made with openssl: a server certificate
 * for localhost and 127.0.0.1, and a client certificate for mutual TLS.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A CA and certificates it signed, made with openssl in a temporary directory. */
export interface TestPki {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** Files of the same, for the *_file options. */
  files: { ca: string; clientCert: string; clientKey: string };
  remove(): void;
}

export function makePki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), "rego-pki-"));
  const at = (f: string): string => join(dir, f);
  const run = (args: string[]): void => {
    execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  run([
    "req",
    "-x509",
    ...ec,
    "-keyout",
    "ca.key",
    "-out",
    "ca.crt",
    "-days",
    "2",
    "-subj",
    "/CN=Rego Test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  const leaf = (name: string, ext: string): void => {
    run(["req", ...ec, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`]);
    writeFileSync(at(`${name}.ext`), ext);
    run([
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      `${name}.crt`,
      "-days",
      "2",
      "-extfile",
      `${name}.ext`,
    ]);
  };
  leaf("server", "basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n");
  leaf("client", "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n");
  const read = (f: string): string => readFileSync(at(f), "utf8");
  return {
    ca: read("ca.crt"),
    serverCert: read("server.crt"),
    serverKey: read("server.key"),
    clientCert: read("client.crt"),
    clientKey: read("client.key"),
    files: { ca: at("ca.crt"), clientCert: at("client.crt"), clientKey: at("client.key") },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
