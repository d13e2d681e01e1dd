/** Go's fmt: Go values, `%v` printing, Sprint/Sprintln and Sprintf with Go's verbs. */
export { formatValue, sortedKeys, sprint, sprintln } from "./print.js";
export { goArgOf, goSprintf, sprintf } from "./sprintf.js";
export {
  type GoField,
  GoFloat,
  GoNamed,
  GoStruct,
  type GoType,
  isTrue,
  type Kind,
  kindOf,
  NIL_SLICE,
  numberOf,
  typeName,
  underlying,
} from "./value.js";
export { formatArg, type GoArg, goTypeName, plain, type Spec } from "./verbs.js";
