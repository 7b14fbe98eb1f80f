/**
 * Every threshold of the cut-out. "Distance" is the Euclidean RGB distance (0..255 per
 * channel) of a grid cell's colour to the backdrop model; `t` is the distance threshold
 * chosen per photo (cells nearer than `t` to the backdrop may be background).
 */
export const SEGMENTATION_THRESHOLDS = {
  /** Long side of the analysis grid: the box-downscale factor is the photo's long side over this, rounded (cells). */
  gridLongSide: 320,
  /** A grid cell with a lower mean alpha is transparent (alpha 0..1). */
  transparentAlpha: 0.5,
  /** With more transparent cells than this share of the grid, the photo's own alpha is the cut-out (share of grid cells). */
  minTransparentShare: 0.05,

  // Backdrop model
  /** Width of the border band the backdrop is sampled from (share of the grid's short side). */
  borderBandShare: 0.03,
  /** The border band is at least this wide (cells). */
  minBorderBand: 2,
  /** One border-band cell in this many (on diagonals: (x + y) mod n = 0) is a backdrop sample (cells). */
  borderSampleStep: 3,
  /** Quadratic backdrop surface: a sample farther than this from it is always an outlier (RGB distance). */
  surfaceOutlierFloor: 6,
  /** …and so is one farther than this multiple of the median residual (× median residual). */
  surfaceOutlierMedianFactor: 3,
  /** The surface describes the backdrop only when more than this share of the samples are inliers (share of samples). */
  surfaceMinInlierShare: 0.6,
  /** A backdrop whose samples lie closer than this to their model (mean residual) is smooth: edges then act as barriers (RGB distance). */
  smoothBackdropSpread: 6,
  /** Colour clusters fitted to the samples of a backdrop the surface does not describe (k-means k). */
  backdropClusters: 4,
  /** Backdrop clusters with a smaller share of the samples are left out of the model (share of samples). */
  minBackdropClusterShare: 0.08,
  /** A backdrop whose clusters spread more than this is not plain: the garment is refused (RGB distance). */
  maxBackdropSpread: 40,

  // Distance threshold t
  /** Backdrops spreading less than this are flat: lower floor and cap for t (RGB distance). */
  flatBackdropSpread: 4,
  /** Floor of t on a flat backdrop: this plus flatFloorPerSpread × spread (RGB distance). */
  flatFloorBase: 7,
  /** …per unit of spread (× spread). */
  flatFloorPerSpread: 2,
  /** Floor of t on other backdrops: this plus floorPerSpread × spread (RGB distance). */
  floorBase: 16,
  /** …per unit of spread (× spread). */
  floorPerSpread: 1.5,
  /** t is this share of Otsu's threshold of the distances, then clamped (× Otsu's threshold). */
  otsuShare: 0.6,
  /** Cap on Otsu's share on a flat backdrop (RGB distance). */
  flatOtsuCap: 12,
  /** Cap on Otsu's share on other backdrops (RGB distance). */
  otsuCap: 60,
  /** Cap on t on other backdrops, above its floor too (RGB distance). */
  thresholdCap: 90,

  // Smooth backdrop: edges as barriers for the background flood
  /** Cells nearer than this multiple of t may be backdrop features (a floor line, a soft shadow); edges matter only next to them (× t). */
  nearBackdropFactor: 2,
  /** Edges are computed up to this far from such cells (cells). */
  edgeReach: 1,
  /** Barrier edge strength when the border band has no background-coloured cell (luminance gradient, 0..255-ish). */
  defaultEdgeThreshold: 8,
  /** The barrier edge strength sits above this percentile of the backdrop's own edges (0..1)… */
  backdropEdgePercentile: 0.99,
  /** …by this margin (luminance gradient). */
  edgeMargin: 2,
  /** Lowest barrier edge strength (luminance gradient). */
  minEdgeThreshold: 4,
  /** Highest barrier edge strength (luminance gradient). */
  maxEdgeThreshold: 16,
  /** A step of at least this in distance between a cell's neighbours is a barrier too: a faint hem line (RGB distance). */
  distanceStep: 5,
  /** The barrier is thickened by this before the flood, so it cannot slip through a one-cell gap or a diagonal (cells). */
  barrierThickening: 1,
  /** Cells nearer than t divided by this are clearly backdrop and get back what the thickening took whole (÷ t). */
  clearBackdropDivisor: 3,
  /** Background-coloured places enclosed by barriers are checked for a wide core only from this many cells on (cells). */
  minEnclosedArea: 25,
  /** A wide enclosed place keeps a core after eroding by this; it stays garment except right next to the background (cells). */
  wideCoreErosion: 2,
  /** Background-coloured cells right next to the background join it across barriers this many cells deep (cells). */
  backdropFringe: 2,
  /** The background climbs background-coloured barrier cells up to the edge's ridge, at most this many cells (cells). */
  edgeClimb: 3,

  // Textured backdrop: a second look with a garment colour model
  /** Garment cells farther than this multiple of t from the backdrop are surely garment and train the garment model (× t). */
  strongFactor: 1.5,
  /** One grid cell in this many is looked at for strong garment samples (cells). */
  strongSampleStep: 5,
  /** The garment model needs more strong samples than the grid's cell count divided by this (÷ grid cells). */
  strongSamplesDivisor: 500,
  /** Colour clusters of the garment model (k-means k). */
  garmentClusters: 5,
  /** Garment clusters with a smaller share of the samples are left out (share of samples). */
  minGarmentClusterShare: 0.03,
  /** Garment cells nearer than this multiple of t to the backdrop may become background (× t)… */
  reclassifyFactor: 2,
  /** …when their distance to the backdrop times this is still below their distance to the garment model (ratio). */
  reclassifyRatio: 1.6,

  // Cleaning and checks
  /** Radius of the opening that removes hanger hooks, strings and speckles (share of the grid's long side). */
  openingRadiusShare: 0.008,
  /** The opening's radius is at least this (cells). */
  minOpeningRadius: 1,
  /** Pieces besides the largest are kept when at least this share of its size (share of the largest piece). */
  mainPieceShare: 0.15,
  /** A cut-out smaller than this share of the grid is no garment found (share of grid cells). */
  minGarmentShare: 0.04,
  /** A cut-out larger than this share of the grid fills the photo (share of grid cells). */
  maxGarmentShare: 0.93,
  /** A cut-out touching more than this share of the grid's border fills the photo (share of border cells, 2 × (w + h)). */
  maxBorderTouchShare: 0.5,

  // Soft alpha
  /** Upsampled mask values at or below this become alpha 0 (0..1). */
  alphaRampLow: 0.25,
  /** Upsampled mask values at or above this become alpha 1; linear in between (0..1). */
  alphaRampHigh: 0.75,
} as const;
