/** Statistics helpers: k-means colour clusters, Otsu's threshold, the median. */

/** A colour cluster: its centre, its share of the samples and the samples' mean distance to the centre. */
export interface Cluster {
  c: [number, number, number];
  share: number;
  spread: number;
}

/**
 * k-means on RGB samples (r, g, b, r, g, b, …) for a fixed number of iterations, seeded
 * with evenly spaced samples; returns the cluster centres with their share of the samples.
 */
export function kmeans(samples: Float32Array, k: number, iters = 5): Cluster[] {
  const n = samples.length / 3;
  const cen = new Float64Array(k * 3);
  for (let j = 0; j < k; j++) {
    const i = Math.floor(((j + 0.5) / k) * n);
    cen[j * 3] = samples[i * 3]!;
    cen[j * 3 + 1] = samples[i * 3 + 1]!;
    cen[j * 3 + 2] = samples[i * 3 + 2]!;
  }
  const assign = new Int32Array(n);
  const sums = new Float64Array(k * 4);
  for (let it = 0; it < iters; it++) {
    sums.fill(0);
    for (let i = 0; i < n; i++) {
      const r = samples[i * 3]!;
      const g = samples[i * 3 + 1]!;
      const b = samples[i * 3 + 2]!;
      let best = 0;
      let bd = Infinity;
      for (let j = 0; j < k; j++) {
        const d = (r - cen[j * 3]!) ** 2 + (g - cen[j * 3 + 1]!) ** 2 + (b - cen[j * 3 + 2]!) ** 2;
        if (d < bd) {
          bd = d;
          best = j;
        }
      }
      assign[i] = best;
      sums[best * 4]! += r;
      sums[best * 4 + 1]! += g;
      sums[best * 4 + 2]! += b;
      sums[best * 4 + 3]! += 1;
    }
    for (let j = 0; j < k; j++) {
      const c = sums[j * 4 + 3]!;
      if (c > 0) {
        cen[j * 3] = sums[j * 4]! / c;
        cen[j * 3 + 1] = sums[j * 4 + 1]! / c;
        cen[j * 3 + 2] = sums[j * 4 + 2]! / c;
      }
    }
  }
  const counts = new Float64Array(k);
  const spread = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const j = assign[i]!;
    counts[j]!++;
    spread[j]! += Math.sqrt(
      (samples[i * 3]! - cen[j * 3]!) ** 2 +
        (samples[i * 3 + 1]! - cen[j * 3 + 1]!) ** 2 +
        (samples[i * 3 + 2]! - cen[j * 3 + 2]!) ** 2,
    );
  }
  const out: Cluster[] = [];
  for (let j = 0; j < k; j++)
    out.push({
      c: [cen[j * 3]!, cen[j * 3 + 1]!, cen[j * 3 + 2]!],
      share: counts[j]! / n,
      spread: counts[j] ? spread[j]! / counts[j]! : 0,
    });
  return out;
}

/**
 * Otsu's threshold of non-negative values up to `maxV` (a 128-bin histogram): the upper
 * edge of the bin that best splits the values into two classes.
 */
export function otsu(values: Float32Array, maxV: number): number {
  const bins = 128;
  const hist = new Float64Array(bins);
  for (let i = 0; i < values.length; i++) hist[Math.min(bins - 1, Math.floor((values[i]! / maxV) * bins))]! += 1;
  const total = values.length;
  let sumAll = 0;
  for (let i = 0; i < bins; i++) sumAll += i * hist[i]!;
  let wB = 0;
  let sumB = 0;
  let best = 0;
  let bestT = 0;
  for (let t = 0; t < bins; t++) {
    wB += hist[t]!;
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      bestT = t;
    }
  }
  return ((bestT + 1) / bins) * maxV;
}

/** The middle value (the upper one of an even count); 0 when empty. */
export function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}
