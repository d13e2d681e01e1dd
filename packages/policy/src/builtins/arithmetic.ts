import type { BuiltinDef } from "./registry-types.js";

export const arithmeticBuiltins: BuiltinDef[] = [];
