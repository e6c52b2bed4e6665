import { useEffect, useRef, useState } from "preact/hooks";
import { signal } from "@preact/signals";
import {
  ChevronLeft,
  ChevronRight,
  Download,
  File,
  Info,
  Maximize2,
  Minimize2,
  Trash2,
  X,
  ZoomIn,
  ZoomOut,
} from "lucide";
import { filesUrl, getResource, parentPath, rawUrl } from "../../client/api.ts";
import { usePage } from "../../client/hooks.ts";
import { afterDelete, findNeighbours } from "../../client/preview/neighbours.ts";
import { bigPreviewUrl } from "../../client/preview/urls.ts";
import { currentPrompt, showPrompt } from "../../client/prompts.ts";
import { navigate } from "../../client/router.ts";
import { listing } from "../../client/state.ts";
import { Icon } from "../../components/Icon.tsx";
import { NoPreview } from "../../components/preview/NoPreview.tsx";
import { PreviewBar } from "../../components/preview/PreviewBar.tsx";
import type { PreviewButton } from "../../components/preview/PreviewBar.tsx";
import { PREVIEW_CSS } from "../../components/preview/styles.ts";
import type { Resource } from "../../lib/types.ts";
import { ImageViewer } from "./ImageViewer.tsx";
import { MediaPlayer } from "./MediaPlayer.tsx";

/** The navigation arrows hide after this long without pointer movement (SPEC.md point 9). */
const NAV_HIDE_MS = 1500;
/** Pointer movement shows the arrows at most this often. */
const NAV_TRIGGER_MS = 500;

/** Full size instead of the resized preview; kept while stepping through a folder. */
const fullSize = signal(false);
/** Parent listings fetched for files opened directly (folder vpath → items). */
const parentItems = new Map<string, Resource[]>();

function folderItems(dir: string): Resource[] | null {
  const l = listing.value;
  if (l && l.path.replace(/\/*$/, "/") === dir && l.items) return l.items;
  return parentItems.get(dir) ?? null;
}

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el &&
    (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT", "VIDEO", "AUDIO"].includes(el.tagName));
}

/** Props of FilePreview. */
export interface FilePreviewProps {
  resource: Resource;
}

/**
 * The full-window preview of a file that is not text: image (zoom, full size), video and audio players, PDF, or a
 * "No preview" card; previous/next among the folder's media files, keys, auto-hiding arrows, delete, info.
 */
export function FilePreview(props: FilePreviewProps) {
  const { resource } = props;
  const { t, config, user } = usePage();
  const dir = parentPath(resource.path);
  const [items, setItems] = useState<Resource[] | null>(() => folderItems(dir));
  const [failed, setFailed] = useState(false);
  const [zoom, setZoom] = useState(1);
  const [zoomCmd, setZoomCmd] = useState<{ kind: "in" | "out" | "reset"; nonce: number } | null>(null);
  const [navVisible, setNavVisible] = useState(true);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastTrigger = useRef(0);

  useEffect(() => {
    setFailed(false);
    setZoom(1);
    const known = folderItems(dir);
    setItems(known);
    if (known) return;
    let live = true;
    getResource(dir).then((r) => {
      parentItems.set(dir, r.items ?? []);
      if (live) setItems(r.items ?? []);
    }, () => live && setItems([]));
    return () => {
      live = false;
    };
  }, [resource.path]);

  const neighbours = findNeighbours(items ?? [], resource.path);
  const { previous, next } = neighbours;
  const isImage = resource.type === "image";
  const isVideo = resource.type === "video";
  const canDownload = !!user?.perm.download;

  const go = (item: Resource | null) => item && navigate(filesUrl(item.path));
  const close = () => navigate(filesUrl(dir, { isDir: true }));
  const zoomBy = (kind: "in" | "out" | "reset") => setZoomCmd({ kind, nonce: Date.now() + Math.random() });
  const remove = () =>
    showPrompt("delete", {
      items: [{ path: resource.path, name: resource.name }],
      onDone: () => {
        const stay = (items ?? []).filter((i) => i.path !== resource.path);
        parentItems.set(dir, stay);
        const target = afterDelete(neighbours);
        if (target) go(target);
        else close();
      },
    });

  function poke() {
    const now = Date.now();
    if (now - lastTrigger.current < NAV_TRIGGER_MS) return;
    lastTrigger.current = now;
    setNavVisible(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setNavVisible(false), NAV_HIDE_MS);
  }
  useEffect(() => {
    hideTimer.current = setTimeout(() => setNavVisible(false), NAV_HIDE_MS);
    return () => clearTimeout(hideTimer.current);
  }, []);

  const keys = useRef<(e: KeyboardEvent) => void>(() => {});
  keys.current = (e: KeyboardEvent) => {
    if (currentPrompt.value || typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    const onControl = ["BUTTON", "A"].includes((e.target as HTMLElement | null)?.tagName ?? "");
    switch (e.key) {
      case "Escape":
        e.preventDefault();
        close();
        return;
      case "Delete":
        if (user?.perm.delete) remove();
        return;
    }
    // Arrows and Enter belong to the player on videos (seeking), and Enter to a focused button.
    if (isVideo) return;
    if (e.key === "ArrowRight" || (e.key === "Enter" && !onControl)) {
      if (next) {
        e.preventDefault();
        go(next);
      }
    } else if (e.key === "ArrowLeft") {
      if (previous) {
        e.preventDefault();
        go(previous);
      }
    } else if (isImage && (e.key === "+" || e.key === "=")) zoomBy("in");
    else if (isImage && e.key === "-") zoomBy("out");
    else if (isImage && e.key === "0") zoomBy("reset");
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => keys.current(e);
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  // Warm the cache for the next image, so stepping through a folder feels instant.
  useEffect(() => {
    if (next?.type !== "image") return;
    const img = new Image();
    img.src = config.ResizePreview && !fullSize.value
      ? bigPreviewUrl(next)
      : rawUrl(next.path, { inline: true });
  }, [next?.path]);

  const buttons: PreviewButton[] = [];
  if (isImage) {
    buttons.push(
      { id: "zoom-out", label: t("preview.zoomOut"), icon: ZoomOut, onClick: () => zoomBy("out") },
      { id: "zoom-in", label: t("preview.zoomIn"), icon: ZoomIn, onClick: () => zoomBy("in") },
    );
    if (config.ResizePreview) {
      buttons.push({
        id: "fullsize",
        label: t(fullSize.value ? "preview.resized" : "preview.fullSize"),
        icon: fullSize.value ? Minimize2 : Maximize2,
        pressed: fullSize.value,
        onClick: () => fullSize.value = !fullSize.value,
      });
    }
  }
  if (canDownload) {
    buttons.push({
      id: "download",
      label: t("preview.download"),
      icon: Download,
      href: rawUrl(resource.path),
      download: true,
    });
  }
  buttons.push({ id: "info", label: t("preview.info"), icon: Info, onClick: () => showPrompt("info") });
  if (user?.perm.delete) {
    buttons.push({ id: "delete", label: t("preview.delete"), icon: Trash2, onClick: remove });
  }

  const inline = rawUrl(resource.path, { inline: true });
  const imageSrc = config.ResizePreview && !fullSize.value ? bigPreviewUrl(resource) : inline;
  let body;
  if (failed || !canDownload) {
    body = (
      <NoPreview
        name={resource.name}
        icon={File}
        message={t("preview.noPreview")}
        downloadUrl={canDownload ? rawUrl(resource.path) : undefined}
        downloadLabel={t("preview.download")}
        downloadIcon={Download}
      />
    );
  } else if (isImage) {
    body = (
      <ImageViewer
        key={resource.path}
        src={imageSrc}
        name={resource.name}
        alt={resource.name}
        onZoom={setZoom}
        command={zoomCmd}
        onError={() => setFailed(true)}
        loadingLabel={t("preview.loading")}
      />
    );
  } else if (resource.type === "video" || resource.type === "audio") {
    body = (
      <MediaPlayer
        key={resource.path}
        kind={resource.type}
        src={inline}
        path={resource.path}
        name={resource.name}
        subtitles={resource.subtitles}
        t={t}
        onError={() => setFailed(true)}
      />
    );
  } else if (resource.type === "pdf") {
    body = <iframe class="preview-pdf" src={inline} title={resource.name} data-testid="preview-pdf" />;
  } else {
    body = (
      <NoPreview
        name={resource.name}
        icon={File}
        message={t("preview.noPreview")}
        downloadUrl={rawUrl(resource.path)}
        downloadLabel={t("preview.download")}
        downloadIcon={Download}
      />
    );
  }

  return (
    <div
      class="preview"
      role="dialog"
      aria-modal="false"
      aria-label={resource.name}
      data-testid="preview"
      data-type={resource.type}
      data-path={resource.path}
      data-ready={items ? "true" : undefined}
      data-nav={navVisible ? "visible" : "hidden"}
      onMouseMove={poke}
      onTouchStart={poke}
    >
      <style>{PREVIEW_CSS}</style>
      <PreviewBar
        title={resource.name}
        close={{ id: "close", label: t("preview.close"), icon: X, onClick: close }}
        buttons={buttons}
        status={isImage && !failed ? `${Math.round(zoom * 100)}%` : undefined}
      />
      <div class="preview-body">{body}</div>
      {previous && (
        <button
          type="button"
          class="preview-nav preview-prev"
          aria-label={t("preview.previous")}
          title={t("preview.previous")}
          data-testid="preview-previous"
          onClick={() => go(previous)}
          onMouseEnter={() => clearTimeout(hideTimer.current)}
        >
          <Icon node={ChevronLeft} size={32} />
        </button>
      )}
      {next && (
        <button
          type="button"
          class="preview-nav preview-next"
          aria-label={t("preview.next")}
          title={t("preview.next")}
          data-testid="preview-next"
          onClick={() => go(next)}
          onMouseEnter={() => clearTimeout(hideTimer.current)}
        >
          <Icon node={ChevronRight} size={32} />
        </button>
      )}
    </div>
  );
}
