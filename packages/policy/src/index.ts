export {
  type EngineOptions,
  type ExpressionResult,
  PolicyEngine,
  type QueryOptions,
  type QueryResult,
} from "./engine.js";
export {
  BuiltinError,
  BuiltinTypeError,
  type Location,
  RegoError,
  type RegoErrorCode,
  RegoErrorList,
} from "./errors.js";
export { formatValue } from "./value/format.js";
export {
  compareNumbers,
  formatNumber,
  isInteger,
  isNumber,
  normalizeNumber,
  parseNumber,
  type RegoNumber,
} from "./value/number.js";
export {
  canonicalKey,
  compare,
  equal,
  fromJSON,
  RegoObject,
  RegoSet,
  stringifyJSON,
  type TypeName,
  toJSON,
  typeName,
  type Value,
} from "./value/value.js";
