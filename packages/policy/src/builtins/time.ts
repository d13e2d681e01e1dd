import type { BuiltinDef } from "./registry-types.js";

export const timeBuiltins: BuiltinDef[] = [];
