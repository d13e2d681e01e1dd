export { ConfigError } from "./config-error.js";
export { isEntryPoint } from "./entry-point.js";
export { addrProblem, readAddr, readWholeNumber } from "./env-readers.js";
