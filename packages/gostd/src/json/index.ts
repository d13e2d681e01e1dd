/** Go's encoding/json: Marshal of Go values, decoding into `any`, and its scanner. */
export { fromJson, goJson, jsonString } from "./marshal.js";
export {
  GO_MAX_JSON_DEPTH,
  type JsonBuilder,
  JsonDepthError,
  type JsonErrorAt,
  JsonSyntaxError,
  parseJson,
  SIMPLE_ESCAPES,
} from "./parse.js";
