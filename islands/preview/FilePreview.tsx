import { useEffect, useState } from "preact/hooks";
import { signal } from "@preact/signals";
import { ChevronLeft, ChevronRight, X } from "../../components/icons.ts";
import { filesUrl } from "../../client/page.ts";
import { parentPath } from "../../lib/url_path.ts";
import { rawUrl } from "../../client/api/mod.ts";
import { usePage } from "../../client/hooks.ts";
import { afterDelete, findNeighbours } from "../../client/preview/neighbours.ts";
import { bigPreviewUrl } from "../../client/preview/urls.ts";
import { currentPrompt, showPrompt } from "../../client/prompts.ts";
import { returnFocus } from "../../client/state.ts";
import { navigate } from "../../client/router.ts";
import { Icon } from "../../components/Icon.tsx";
import { PreviewBar } from "../../components/preview/PreviewBar.tsx";
import { PREVIEW_CSS } from "../../components/preview/styles.ts";
import type { Resource } from "../../lib/types.ts";
import { forgetItem, useAutoHide, useFolderItems, useWindowKeys } from "./hooks.ts";
import { PreviewBody } from "./PreviewBody.tsx";
import { previewButtons, type ZoomCommand } from "./buttons.ts";

/** Full size instead of the resized preview; kept while stepping through a folder. */
const fullSize = signal(false);

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
  const items = useFolderItems(dir, resource.path);
  const [failed, setFailed] = useState(false);
  const [zoom, setZoom] = useState(1);
  const [zoomCmd, setZoomCmd] = useState<ZoomCommand | null>(null);
  const nav = useAutoHide();

  useEffect(() => {
    setFailed(false);
    setZoom(1);
  }, [resource.path]);

  const neighbours = findNeighbours(items ?? [], resource.path);
  const { previous, next } = neighbours;
  const isImage = resource.type === "image";
  const resized = config.ResizePreview && !fullSize.value;

  const go = (item: Resource | null) => item && navigate(filesUrl(item.path));
  const close = () => {
    // Keyboard focus goes back to the item the preview came from.
    returnFocus.value = resource.path;
    navigate(filesUrl(dir, { isDir: true }));
  };
  const zoomBy = (kind: ZoomCommand["kind"]) => setZoomCmd({ kind, nonce: Date.now() + Math.random() });
  const remove = () =>
    showPrompt("delete", {
      items: [{ path: resource.path, name: resource.name }],
      onDone: () => {
        forgetItem(dir, resource.path);
        const target = afterDelete(neighbours);
        if (target) go(target);
        else close();
      },
    });

  useWindowKeys((e) => {
    if (currentPrompt.value || typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") {
      e.preventDefault();
      close();
      return;
    }
    if (e.key === "Delete") {
      if (user?.perm.delete) remove();
      return;
    }
    // Arrows and Enter belong to the player on videos (seeking), and Enter to a focused button.
    if (resource.type === "video") return;
    const onControl = ["BUTTON", "A"].includes((e.target as HTMLElement | null)?.tagName ?? "");
    // In right-to-left pages the next item lies to the left.
    const rtl = document.documentElement.dir === "rtl";
    const forward = rtl ? "ArrowLeft" : "ArrowRight";
    const back = rtl ? "ArrowRight" : "ArrowLeft";
    const target = e.key === forward || (e.key === "Enter" && !onControl)
      ? next
      : e.key === back
      ? previous
      : null;
    if (target) {
      e.preventDefault();
      go(target);
    } else if (isImage && (e.key === "+" || e.key === "=")) zoomBy("in");
    else if (isImage && e.key === "-") zoomBy("out");
    else if (isImage && e.key === "0") zoomBy("reset");
  });

  // Warm the cache for the next image, so stepping through a folder feels instant.
  useEffect(() => {
    if (next?.type !== "image") return;
    new Image().src = resized ? bigPreviewUrl(next) : rawUrl(next.path, { inline: true });
  }, [next?.path]);

  const buttons = previewButtons({
    resource,
    perm: user?.perm,
    canResize: config.ResizePreview,
    fullSize: fullSize.value,
    t,
    onZoom: zoomBy,
    onFullSize: () => fullSize.value = !fullSize.value,
    onRename: () =>
      showPrompt("rename", {
        item: { path: resource.path, name: resource.name },
        onRenamed: (path: string) => {
          forgetItem(dir, resource.path);
          navigate(filesUrl(path));
        },
      }),
    onDelete: remove,
  });

  const arrow = (item: Resource, kind: "previous" | "next") => (
    <button
      type="button"
      class={`preview-nav preview-${kind === "previous" ? "prev" : "next"}`}
      aria-label={t(`preview.${kind}`)}
      title={t(`preview.${kind}`)}
      data-testid={`preview-${kind}`}
      onClick={() => go(item)}
      onMouseEnter={nav.hold}
    >
      <Icon node={kind === "previous" ? ChevronLeft : ChevronRight} size={32} />
    </button>
  );

  return (
    <div
      class="preview"
      role="dialog"
      aria-label={resource.name}
      data-testid="preview"
      data-type={resource.type}
      data-path={resource.path}
      data-ready={items ? "true" : undefined}
      data-nav={nav.visible ? "visible" : "hidden"}
      onMouseMove={nav.poke}
      onTouchStart={nav.poke}
    >
      <style>{PREVIEW_CSS}</style>
      <PreviewBar
        title={resource.name}
        close={{ id: "close", label: t("preview.close"), icon: X, onClick: close }}
        buttons={buttons}
        status={isImage && !failed ? `${Math.round(zoom * 100)}%` : undefined}
      />
      <div class="preview-body">
        <PreviewBody
          resource={resource}
          imageSrc={resized ? bigPreviewUrl(resource) : rawUrl(resource.path, { inline: true })}
          canDownload={!!user?.perm.download}
          failed={failed}
          onFailed={() => setFailed(true)}
          onZoom={setZoom}
          zoomCommand={zoomCmd}
          t={t}
        />
      </div>
      {previous && arrow(previous, "previous")}
      {next && arrow(next, "next")}
    </div>
  );
}
