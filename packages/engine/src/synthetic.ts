import type { RGBAImage } from './image.js';

/** A T-shirt-like shape on white, for warming up the JIT (also used by the tests). */
export function syntheticGarment(w = 400, h = 480, colour: [number, number, number] = [30, 90, 200]): RGBAImage {
  const img: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4).fill(255) };
  const inShirt = (x: number, y: number) => {
    const body = x >= w * 0.28 && x <= w * 0.72 && y >= h * 0.1 && y <= h * 0.9;
    const sleeveL =
      y >= h * 0.1 && y <= h * 0.3 && x >= w * 0.1 && x < w * 0.28 && y - h * 0.1 <= (x - w * 0.1) * 1.2 + h * 0.1;
    const sleeveR =
      y >= h * 0.1 && y <= h * 0.3 && x > w * 0.72 && x <= w * 0.9 && y - h * 0.1 <= (w * 0.9 - x) * 1.2 + h * 0.1;
    const neck = (x - w / 2) ** 2 / (w * 0.09) ** 2 + (y - h * 0.1) ** 2 / (h * 0.05) ** 2 < 1;
    return (body || sleeveL || sleeveR) && !neck;
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!inShirt(x, y)) continue;
      const o = (y * w + x) * 4;
      img.data[o] = colour[0];
      img.data[o + 1] = colour[1];
      img.data[o + 2] = colour[2];
    }
  return img;
}

/** Standing-person keypoints for a w×h frame (BlazePose order), for warm-up and tests. */
export function syntheticKeypoints(w: number, h: number): { x: number; y: number; score: number }[] {
  const k = Array.from({ length: 33 }, () => ({ x: w / 2, y: h * 0.1, score: 1 }));
  const set = (i: number, x: number, y: number) => (k[i] = { x: x * w, y: y * h, score: 1 });
  set(0, 0.5, 0.1);
  set(2, 0.48, 0.09);
  set(5, 0.52, 0.09);
  set(7, 0.46, 0.1);
  set(8, 0.54, 0.1);
  set(9, 0.49, 0.12);
  set(10, 0.51, 0.12);
  set(11, 0.6, 0.22);
  set(12, 0.4, 0.22);
  set(13, 0.63, 0.38);
  set(14, 0.37, 0.38);
  set(15, 0.64, 0.52);
  set(16, 0.36, 0.52);
  for (const [i, x] of [
    [17, 0.645],
    [19, 0.645],
    [21, 0.64],
  ] as const)
    set(i, x, 0.55);
  for (const [i, x] of [
    [18, 0.355],
    [20, 0.355],
    [22, 0.36],
  ] as const)
    set(i, x, 0.55);
  set(23, 0.56, 0.52);
  set(24, 0.44, 0.52);
  set(25, 0.56, 0.72);
  set(26, 0.44, 0.72);
  set(27, 0.56, 0.92);
  set(28, 0.44, 0.92);
  set(29, 0.56, 0.94);
  set(30, 0.44, 0.94);
  set(31, 0.57, 0.96);
  set(32, 0.43, 0.96);
  return k;
}
