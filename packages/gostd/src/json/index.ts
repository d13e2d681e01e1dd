/** Go's encoding/json: Marshal of Go values and decoding into `any`. */
export { fromJson, goJson, jsonString } from "./marshal.js";
