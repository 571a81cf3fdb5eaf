// Typed errors of the math server. Messages are German: they reach the model and the participant.

import { KitError } from "../../lib/errors.js";

export type MathErrorCode = "not_a_number" | "division_by_zero" | "out_of_range" | "invalid_expression";

/** Every error a tool reports: a machine-readable code, a German message, and the offending input. */
export class MathError extends KitError {
  override name = "MathError";
  constructor(
    readonly code: MathErrorCode,
    message: string,
    readonly input?: unknown,
  ) {
    super(message);
  }
}
