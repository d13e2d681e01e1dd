/** Go's time: durations. */
export { DurationError, parseGoDuration } from "./duration.js";
