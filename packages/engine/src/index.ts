export {
  EngineError,
  isEngineError,
  type EngineHealth,
  type KeptPersonInput,
  type PersonAnalysisOutput,
  type TryOnEngine,
  type TryOnInput,
  type TryOnOutput,
} from './types.js';
export {
  createLocalEngine,
  LOCAL_ENGINE_LABEL,
  workerLocation,
  type LocalEngine,
  type LocalEngineOptions,
  type LocalTryOnInfo,
} from './local-engine.js';
export * from './metrics.js';
export type { ShopperFigures } from './quality.js';
export {
  classifyGarment,
  type ClassifyOptions,
  type GarmentClassification,
  type GarmentFeatures,
} from './garment-classifier.js';
export { PERSON_ANALYSIS_VERSION } from './person-analysis.js';
