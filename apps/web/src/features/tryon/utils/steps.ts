export type Step = 1 | 2 | 3 | 4;

/** The steps and the catalog ids of their names. */
export const STEPS = [
  { step: 1, labelId: 'tryon.steps.person' },
  { step: 2, labelId: 'tryon.steps.clothing' },
  { step: 3, labelId: 'tryon.steps.process' },
  { step: 4, labelId: 'tryon.steps.result' },
] as const;

export interface StepInput {
  hasPerson: boolean;
  hasClothing: boolean;
  processing: boolean;
  hasResult: boolean;
}

/** The step indicator's rules. */
export function currentStep({ hasPerson, hasClothing, processing, hasResult }: StepInput): Step {
  if (hasResult) return 4;
  if (processing) return 3;
  if (!hasPerson) return 1;
  if (!hasClothing) return 2;
  return 3;
}

/** The Try with AI button is enabled only with both photos and nothing processing. */
export function canTryOn({
  hasPerson,
  hasClothing,
  processing,
}: Pick<StepInput, 'hasPerson' | 'hasClothing' | 'processing'>): boolean {
  return hasPerson && hasClothing && !processing;
}
