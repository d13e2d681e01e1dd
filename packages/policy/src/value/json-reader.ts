/**
 * JSON text read straight into Rego values on gostd's scanner: integers keep every digit
 * (bigint beyond the safe range), objects become RegoObjects (a repeated key keeps its last
 * value). Errors read like Go's encoding/json.
 */

import {
  GO_MAX_JSON_DEPTH,
  type JsonBuilder,
  JsonSyntaxError,
  parseJson,
} from "@quintet/gostd/json";
import { parseNumber } from "./number.js";
import { RegoObject, type Value } from "./value.js";

/** Well-formed JSON holding a number no Rego value here can carry (beyond float range). */
export class JSONRangeError extends JsonSyntaxError {}

export interface ReadJsonOptions {
  /** Arrays and objects nested deeper fail with JsonDepthError (default Go's 10 000). */
  readonly maxDepth?: number;
  /** Numbers beyond float range become ±Infinity instead of failing (io.jwt has kept this). */
  readonly allowInfinity?: boolean;
}

/** Builds Rego values; remembers the first number out of float range. */
class RegoBuilder implements JsonBuilder<Value, RegoObject> {
  rangeError: JSONRangeError | undefined;

  constructor(private readonly allowInfinity: boolean) {}

  string(s: string): Value {
    return s;
  }

  number(text: string): Value {
    const n = parseNumber(text) ?? Number(text);
    if (typeof n === "number" && !Number.isFinite(n) && !this.allowInfinity) {
      // Reported only once the whole text is known to be well-formed, as Go checks syntax first.
      this.rangeError ??= new JSONRangeError(`number ${text} is out of the representable range`);
    }
    return n;
  }

  literal(v: boolean | null): Value {
    return v;
  }

  array(items: Value[]): Value {
    return items;
  }

  newObject(): RegoObject {
    return new RegoObject();
  }

  set(object: RegoObject, key: string, value: Value): void {
    object.set(key, value);
  }

  object(object: RegoObject): Value {
    return object;
  }
}

/** Parses JSON text into a Value; throws JsonSyntaxError (JsonDepthError past `maxDepth`). */
export function readJSON(text: string, options: ReadJsonOptions = {}): Value {
  const builder = new RegoBuilder(options.allowInfinity ?? false);
  const value = parseJson(text, builder, options.maxDepth ?? GO_MAX_JSON_DEPTH);
  if (builder.rangeError) throw builder.rangeError;
  return value;
}
