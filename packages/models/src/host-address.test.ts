// Tests of parseHostAddress and clientBaseUrl: Ollama's OLLAMA_HOST forms, and bad values.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clientBaseUrl, parseHostAddress } from "./host-address.js";

describe("host addresses", () => {
  it("parses the forms Ollama's envconfig.Host accepts", () => {
    const cases: [string, string, number, string, string][] = [
      ["127.0.0.1:0", "http", 0, "127.0.0.1", ""],
      ["http://localhost:1234", "http", 1234, "localhost", ""],
      [":9000", "http", 9000, "127.0.0.1", ""],
      ["example.com", "http", 11434, "example.com", ""],
      ["http://example.com", "http", 80, "example.com", ""],
      ["https://example.com", "https", 443, "example.com", ""],
      ["https://example.com:8443/ollama/", "https", 8443, "example.com", "ollama"],
      ["http://10.0.0.1:11434/a/b", "http", 11434, "10.0.0.1", "a/b"],
      ["[::1]:8080", "http", 8080, "::1", ""],
      ["::1", "http", 11434, "::1", ""],
      ['  "0.0.0.0:1"  ', "http", 1, "0.0.0.0", ""],
    ];
    for (const [text, scheme, port, host, path] of cases)
      assert.deepEqual(parseHostAddress(text), { scheme, host, port, path }, text);
  });

  it("refuses a bad port, an unknown scheme, too many colons and an empty value", () => {
    for (const bad of ["host:99999", "host:abc", "host:", "ftp://host", "a:b:c", "", "[nope]:1"])
      assert.equal(parseHostAddress(bad), undefined, bad);
  });

  it("gives clients a loopback URL for a wildcard host, keeping scheme and path", () => {
    const url = (t: string) => clientBaseUrl(parseHostAddress(t) ?? assert.fail(t));
    assert.equal(url("0.0.0.0:18434"), "http://127.0.0.1:18434");
    assert.equal(url("[::]:1"), "http://127.0.0.1:1");
    assert.equal(url("https://h.example/base"), "https://h.example:443/base");
    assert.equal(url("::1"), "http://[::1]:11434");
  });
});
