import { useEffect, useRef, useState } from "preact/hooks";
import {
  clampPan,
  cycleZoom,
  distance,
  maxZoom,
  PINCH_MOVE_DELAY_MS,
  pinchZoom,
  stepZoom,
} from "../../client/preview/zoom.ts";
import type { PinchStart, Point } from "../../client/preview/zoom.ts";
import { isTiffName, loadImageObjectUrl } from "../../client/preview/tiff.ts";

/** Double taps closer than this count as one gesture (as in filebrowser). */
const DOUBLE_TAP_MS = 300;

/** Props of ImageViewer. */
export interface ImageViewerProps {
  src: string;
  /** File name: TIFF-family files are decoded in the browser. */
  name: string;
  alt: string;
  /** Reports the zoom level (for the toolbar). */
  onZoom?: (scale: number) => void;
  /** Zoom commands from the toolbar or the keyboard: "in", "out", "reset"; `nonce` makes repeats count. */
  command?: { kind: "in" | "out" | "reset"; nonce: number } | null;
  onError?: () => void;
  loadingLabel: string;
}

/** An image with zoom (wheel, buttons, double click/tap cycling 1-2-4, pinch) and drag-to-pan. */
export function ImageViewer(props: ImageViewerProps) {
  const tiff = isTiffName(props.name);
  const [src, setSrc] = useState<string | null>(tiff ? null : props.src);
  const [scale, setScale] = useState(1);
  const [pan, setPan] = useState<Point>({ x: 0, y: 0 });
  const [dragging, setDragging] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const max = useRef(5);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<PinchStart | null>(null);
  const moveBlockedUntil = useRef(0);
  const lastTap = useRef(0);
  const last = useRef<Point | null>(null);

  useEffect(() => {
    setScale(1);
    setPan({ x: 0, y: 0 });
    if (!tiff) {
      setSrc(props.src);
      return;
    }
    setSrc(null);
    const ctrl = new AbortController();
    let url: string | null = null;
    loadImageObjectUrl(props.src, { signal: ctrl.signal }).then((u) => {
      url = u;
      setSrc(u);
    }, () => !ctrl.signal.aborted && props.onError?.());
    return () => {
      ctrl.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [props.src]);

  useEffect(() => props.onZoom?.(scale), [scale]);

  function sizes() {
    const el = img.current!;
    const view = box.current!;
    return {
      displayed: { width: el.offsetWidth, height: el.offsetHeight },
      viewport: { width: view.clientWidth, height: view.clientHeight },
    };
  }

  function apply(next: number, nextPan: Point = pan) {
    if (!img.current || !box.current) return;
    setScale(next);
    setPan(next <= 1 ? { x: 0, y: 0 } : clampPan(nextPan, { scale: next, ...sizes() }));
  }

  // The last toolbar command belongs to the image it was given for: a new image starts at 100%.
  const seenCommand = useRef(props.command?.nonce);
  useEffect(() => {
    const c = props.command;
    if (!c || c.nonce === seenCommand.current) return;
    seenCommand.current = c.nonce;
    if (c.kind === "reset") apply(1, { x: 0, y: 0 });
    else apply(stepZoom(scale, { direction: c.kind === "in" ? 1 : -1, max: max.current }));
  }, [props.command?.nonce]);

  function onLoad() {
    const el = img.current;
    if (!el) return;
    max.current = maxZoom({ width: el.naturalWidth, height: el.naturalHeight }, {
      width: el.offsetWidth,
      height: el.offsetHeight,
    });
  }

  function onWheel(e: WheelEvent) {
    e.preventDefault();
    apply(stepZoom(scale, { direction: e.deltaY < 0 ? 1 : -1, max: max.current }));
  }

  function onPointerDown(e: PointerEvent) {
    try {
      (e.currentTarget as Element).setPointerCapture(e.pointerId);
    } catch {
      // Synthetic or already-released pointers cannot be captured; the gesture still works without.
    }
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      gesture.current = { scale, distance: distance(a, b) };
    } else if (pointers.current.size === 1) {
      last.current = { x: e.clientX, y: e.clientY };
      if (e.pointerType !== "mouse") {
        const now = Date.now();
        if (now - lastTap.current < DOUBLE_TAP_MS) {
          lastTap.current = 0;
          apply(cycleZoom(scale), { x: 0, y: 0 });
        } else lastTap.current = now;
      }
    }
  }

  function onPointerMove(e: PointerEvent) {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 2 && gesture.current) {
      const [a, b] = [...pointers.current.values()];
      apply(pinchZoom(gesture.current, { distance: distance(a, b), max: max.current }));
      return;
    }
    if (pointers.current.size !== 1 || scale <= 1 || Date.now() < moveBlockedUntil.current || !last.current) {
      return;
    }
    const dx = e.clientX - last.current.x;
    const dy = e.clientY - last.current.y;
    last.current = { x: e.clientX, y: e.clientY };
    setDragging(true);
    // The image is scaled around its centre, so a screen move of d pixels is d pixels of pan.
    apply(scale, { x: pan.x + dx, y: pan.y + dy });
  }

  function onPointerUp(e: PointerEvent) {
    pointers.current.delete(e.pointerId);
    if (gesture.current && pointers.current.size < 2) {
      gesture.current = null;
      // The fingers rarely lift together: ignore the remaining one for a moment so the image does not jump.
      moveBlockedUntil.current = Date.now() + PINCH_MOVE_DELAY_MS;
    }
    const rest = [...pointers.current.values()][0];
    last.current = rest ?? null;
    if (pointers.current.size === 0) setDragging(false);
  }

  return (
    <div
      class={`image-viewer${scale > 1 ? " zoomed" : ""}${dragging ? " dragging" : ""}`}
      ref={box}
      onWheel={onWheel}
      onDblClick={() => apply(cycleZoom(scale), { x: 0, y: 0 })}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-testid="image-viewer"
      data-scale={String(scale)}
    >
      {src
        ? (
          <img
            ref={img}
            src={src}
            alt={props.alt}
            draggable={false}
            onLoad={onLoad}
            onError={() => props.onError?.()}
            data-testid="preview-image"
            style={{ transform: `translate(${pan.x}px, ${pan.y}px) scale(${scale})` }}
          />
        )
        : <p class="view-message" aria-busy="true">{props.loadingLabel}</p>}
    </div>
  );
}
