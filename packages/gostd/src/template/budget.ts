/** The hooks through which a caller bounds one parse or rendering (steps, text, nesting). */

/** Counts the work of one parse or rendering; a method throws to stop it. */
export interface TemplateBudget {
  /** One more step: a token, node, expression or loop iteration. */
  step(): void;
  /** `chars` more characters written or built by a function. */
  addText(chars: number): void;
  /** Enters one level of nesting; `leave` follows. */
  enter(): void;
  leave(): void;
}

/** No bounds: Go's own behaviour. */
export const UNBOUNDED: TemplateBudget = Object.freeze({
  step() {},
  addText() {},
  enter() {},
  leave() {},
});
