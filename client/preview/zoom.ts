// This module is browser-compatible.
/** Image zoom and pan arithmetic of the preview: steps, limits, the double-click cycle. */

/** One wheel or button step. */
export const ZOOM_STEP = 0.25;
/** Smallest zoom. */
export const ZOOM_MIN = 0.25;
/** Zoom beyond the natural size: the maximum is this plus the natural/displayed ratio. */
export const ZOOM_EXTRA = 4;
/** Zoom levels a double click or double tap cycles through. */
export const ZOOM_CYCLE = [1, 2, 4] as const;
/** After a pinch, one-finger panning waits this long (the second finger rarely lifts at the same moment). */
export const PINCH_MOVE_DELAY_MS = 200;

/** A width and height in CSS pixels. */
export interface Size {
  width: number;
  height: number;
}

/** An offset in CSS pixels. */
export interface Point {
  x: number;
  y: number;
}

/** The largest zoom: 4 plus the ratio of the natural to the displayed size along the longer side. */
export function maxZoom(natural: Size, displayed: Size): number {
  const portrait = natural.height > natural.width;
  const real = portrait ? natural.height : natural.width;
  const shown = portrait ? displayed.height : displayed.width;
  const ratio = shown > 0 && real > 0 ? real / shown : 1;
  return ZOOM_EXTRA + ratio;
}

/** Keeps a zoom within [ZOOM_MIN, max]. */
export function clampZoom(scale: number, max: number): number {
  return Math.min(Math.max(scale, ZOOM_MIN), Math.max(max, ZOOM_MIN));
}

/** One step in or out (direction 1 or -1), snapped to the step grid and clamped to [ZOOM_MIN, max]. */
export function stepZoom(scale: number, options: { direction: number; max: number }): number {
  const snapped = Math.round(scale / ZOOM_STEP) * ZOOM_STEP;
  return clampZoom(snapped + Math.sign(options.direction) * ZOOM_STEP, options.max);
}

/** The next level of the double-click cycle 1 → 2 → 4 → 1 (from any zoom: the next larger level, else 1). */
export function cycleZoom(scale: number): number {
  const next = ZOOM_CYCLE.find((z) => z > scale + 1e-6);
  return next ?? 1;
}

/** Where a pinch started: the zoom and the distance between the two fingers. */
export interface PinchStart {
  scale: number;
  distance: number;
}

/** The zoom of a pinch: the start zoom times the change of the finger distance, clamped. */
export function pinchZoom(start: PinchStart, options: { distance: number; max: number }): number {
  if (start.distance <= 0) return clampZoom(start.scale, options.max);
  return clampZoom(start.scale * (options.distance / start.distance), options.max);
}

/** Limits a pan offset so the zoomed image never leaves the viewport entirely; no pan when it fits. */
export function clampPan(offset: Point, options: { scale: number; displayed: Size; viewport: Size }): Point {
  const limit = (shown: number, view: number) => Math.max(0, (shown * options.scale - view) / 2);
  const lx = limit(options.displayed.width, options.viewport.width);
  const ly = limit(options.displayed.height, options.viewport.height);
  return {
    x: Math.min(Math.max(offset.x, -lx), lx) || 0,
    y: Math.min(Math.max(offset.y, -ly), ly) || 0,
  };
}

/** Distance between two points (for pinch gestures). */
export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
