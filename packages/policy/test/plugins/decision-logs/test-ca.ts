/** A throwaway certificate authority and a server certificate for 127.0.0.1, made by openssl. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificates {
  /** PEM of the CA certificate clients should trust. */
  ca: string;
  /** PEM key and certificate of the server (subjectAltName IP:127.0.0.1). */
  key: string;
  cert: string;
}

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), "rego-ca-"));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  try {
    openssl(
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      at("ca.key"),
      "-out",
      at("ca.pem"),
      "-days",
      "1",
      "-subj",
      "/CN=rego test CA",
    );
    openssl(
      "req",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      at("server.key"),
      "-out",
      at("server.csr"),
      "-subj",
      "/CN=127.0.0.1",
    );
    writeFileSync(at("ext.cnf"), "subjectAltName=IP:127.0.0.1\n");
    openssl(
      "x509",
      "-req",
      "-in",
      at("server.csr"),
      "-CA",
      at("ca.pem"),
      "-CAkey",
      at("ca.key"),
      "-CAcreateserial",
      "-out",
      at("server.pem"),
      "-days",
      "1",
      "-extfile",
      at("ext.cnf"),
    );
    return {
      ca: readFileSync(at("ca.pem"), "utf8"),
      key: readFileSync(at("server.key"), "utf8"),
      cert: readFileSync(at("server.pem"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
