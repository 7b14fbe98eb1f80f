/**
 * Reduces one photo with whatever canvas the context offers: OffscreenCanvas in a worker,
 * a <canvas> on the main thread. Answers the reduced blob, or null to upload the original.
 */
import { hasTransparency, outputFormat, planReduction, shouldUseEncoded } from './reduce-plan';

type Ctx2D = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

export interface CanvasKit {
  create: (
    width: number,
    height: number,
  ) => { ctx: Ctx2D | null; encode: (type: string, quality: number | undefined) => Promise<Blob | null> };
}

export const offscreenKit: CanvasKit = {
  create(width, height) {
    const canvas = new OffscreenCanvas(width, height);
    return {
      ctx: canvas.getContext('2d'),
      encode: (type, quality) => canvas.convertToBlob(quality === undefined ? { type } : { type, quality }),
    };
  },
};

export const domCanvasKit: CanvasKit = {
  create(width, height) {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    return {
      ctx: canvas.getContext('2d'),
      encode: (type, quality) => new Promise((resolve) => canvas.toBlob(resolve, type, quality)),
    };
  },
};

/** `mustShrink`: the original is over the upload limit (see `planReduction`). */
export async function reduceImage(file: Blob, kit: CanvasKit, mustShrink = false): Promise<Blob | null> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const plan = planReduction({ type: file.type, width: bitmap.width, height: bitmap.height }, undefined, mustShrink);
    if (plan.action === 'keep') return null;
    const { ctx, encode } = kit.create(plan.width, plan.height);
    if (!ctx) return null;
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, 0, 0, plan.width, plan.height);
    const transparent = plan.checkAlpha && hasTransparency(ctx.getImageData(0, 0, plan.width, plan.height).data);
    const format = outputFormat(file.type, transparent);
    const blob = await encode(format.type, format.quality);
    if (!blob || !shouldUseEncoded(plan, file, blob, format.type)) return null;
    return blob;
  } finally {
    bitmap.close();
  }
}
