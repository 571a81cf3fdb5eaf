// Aufgabe 4 (the $ref plan executor): what the exercise notebook imports — its set-up, self-checks and helpers.
export { setupPart4, type Part4Kit, type SetupOptions, type TravelKit } from "./setup.js";
export {
  checkResolveRefs,
  checkReferencedIds,
  checkReadyCalls,
  type PlannedCall,
  type ResolveRefsFn,
  type ReferencedIdsFn,
  type ReadyCallsFn,
} from "./part4-checks.js";
export { checkStreckenPlan, runMathPlan, type StreckenPlanFn } from "./transfer-checks.js";
export {
  lookUpRef,
  refPath,
  runPlanWith,
  whenSolved,
  type CallingClient,
  type ExecutorParts,
  type PlannedStep,
} from "./helpers.js";
export { NotSolvedError, type CheckReport } from "./check-runner.js";
export { hilfe } from "./hilfe.js";
