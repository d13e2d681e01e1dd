/** Go's strconv: float formatting and string quoting. */
export {
  formatBinaryExp,
  formatExp,
  formatFixed,
  formatFloat,
  formatGeneral,
  formatHexFloat,
} from "./float.js";
export { canBackquote, goQuote, isPrintable } from "./quote.js";
