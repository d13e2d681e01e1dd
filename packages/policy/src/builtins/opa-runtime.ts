/**
 * `opa.runtime`: OPA answers with its configuration, environment and version; this engine
 * keeps no such runtime document, so the answer is an empty object.
 */
import { RegoObject } from "../value/value.js";
import type { BuiltinDef } from "./registry-types.js";

export const opaRuntimeBuiltins: BuiltinDef[] = [
  {
    name: "opa.runtime",
    args: [],
    result: "object",
    impl: () => new RegoObject(),
  },
];
