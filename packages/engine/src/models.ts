/**
 * Loads and runs the vendored pose / segmentation models with TensorFlow.js on its
 * WebAssembly backend. Everything is read from local files: no network access.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

const here = dirname(fileURLToPath(import.meta.url));
/** `models/` sits next to both `src/` and `dist/`. */
const MODELS_DIR = join(here, '..', 'models');

let backendReady: Promise<void> | undefined;

function wasmDir(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@tensorflow/tfjs-backend-wasm/package.json');
  return join(dirname(pkg), 'dist') + '/';
}

/** Initialise the wasm backend once per thread. */
function initBackend(): Promise<void> {
  if (!backendReady) {
    backendReady = (async () => {
      setWasmPaths(wasmDir());
      // Single-threaded wasm: the worker pool gives the parallelism.
      // tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
      const ok = await tf.setBackend('wasm');
      if (!ok) throw new Error('the TensorFlow.js wasm backend could not start');
      await tf.ready();
    })();
  }
  return backendReady;
}

/** An IOHandler that reads a graph model's JSON and weight files from disk. */
function fileHandler(jsonPath: string): tf.io.IOHandler {
  return {
    load: async () => {
      const json = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
        modelTopology: object;
        weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
        format?: string;
        generatedBy?: string;
        convertedBy?: string;
        signature?: object;
      };
      const specs: tf.io.WeightsManifestEntry[] = [];
      const buffers: Buffer[] = [];
      for (const group of json.weightsManifest) {
        specs.push(...group.weights);
        for (const p of group.paths) buffers.push(readFileSync(join(dirname(jsonPath), p)));
      }
      const all = Buffer.concat(buffers);
      const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
      return {
        modelTopology: json.modelTopology,
        weightSpecs: specs,
        weightData,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
      };
    },
  };
}

export interface Models {
  pose: GraphModel;
  selfie: GraphModel;
}

let modelsReady: Promise<Models> | undefined;

/** Load (once per thread) and warm the models. */
export function loadModels(): Promise<Models> {
  if (!modelsReady) {
    modelsReady = (async () => {
      await initBackend();
      const pose = await loadGraphModel(fileHandler(join(MODELS_DIR, 'blazepose-lite.json')));
      const selfie = await loadGraphModel(fileHandler(join(MODELS_DIR, 'selfie.json')));
      const models = { pose, selfie };
      // One dry run each compiles the kernels so the first real request is fast.
      runPoseModel(models, new Float32Array(256 * 256 * 3));
      runSelfieModel(models, new Float32Array(256 * 256 * 3));
      return models;
    })();
  }
  return modelsReady;
}

export interface PoseRaw {
  /** 39 × [x, y, z, visibility, presence] in 256×256 input pixels (visibility/presence as logits). */
  landmarks: Float32Array;
  /** Probability that a person is present. */
  poseFlag: number;
}

/**
 * `input`: 256×256×3 RGB in [0, 1]. Only the landmark and presence outputs are asked
 * for, so the graph executor skips the segmentation head (about a third of the model).
 */
export function runPoseModel(models: Models, input: Float32Array): PoseRaw {
  const x = tf.tensor4d(input, [1, 256, 256, 3]);
  const out = models.pose.execute(x, ['Identity_2:0', 'Identity_3:0']) as tf.Tensor[];
  x.dispose();
  const result: PoseRaw = {
    landmarks: out[0]!.dataSync() as Float32Array,
    poseFlag: (out[1]!.dataSync() as Float32Array)[0] ?? 0,
  };
  for (const t of out) t.dispose();
  return result;
}

/** `input`: 256×256×3 RGB in [0, 1]; returns 256×256 person probabilities. */
export function runSelfieModel(models: Models, input: Float32Array): Float32Array {
  const x = tf.tensor4d(input, [1, 256, 256, 3]);
  const out = models.selfie.execute(x) as tf.Tensor;
  x.dispose();
  const data = out.dataSync() as Float32Array;
  out.dispose();
  return data;
}
