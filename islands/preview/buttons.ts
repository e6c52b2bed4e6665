import {
  Download,
  Info,
  Maximize2,
  Minimize2,
  Pencil,
  Trash2,
  ZoomIn,
  ZoomOut,
} from "../../components/icons.ts";
import type { PreviewButton } from "../../components/preview/PreviewBar.tsx";
import { rawUrl } from "../../client/api/mod.ts";
import { showPrompt } from "../../client/prompts.ts";
import type { Permissions, Resource } from "../../lib/types.ts";

/** A zoom request for the image view; `nonce` makes a repeated request a new one. */
export type ZoomCommand = { kind: "in" | "out" | "reset"; nonce: number };

/** What the preview's buttons depend on, and what they do. */
export interface PreviewButtonsOptions {
  resource: Resource;
  perm?: Permissions;
  /** The server resizes previews (full size can be asked for). */
  canResize: boolean;
  fullSize: boolean;
  t: (key: string) => string;
  onZoom: (kind: ZoomCommand["kind"]) => void;
  onFullSize: () => void;
  onRename: () => void;
  onDelete: () => void;
}

/** The preview bar's buttons: zoom and full size for images, then download, rename, info and delete as allowed. */
export function previewButtons(o: PreviewButtonsOptions): PreviewButton[] {
  const { resource, perm, t } = o;
  const buttons: PreviewButton[] = [];
  if (resource.type === "image") {
    buttons.push(
      {
        id: "zoom-out",
        label: t("preview.zoomOut"),
        icon: ZoomOut,
        onClick: () => o.onZoom("out"),
        hideOnMobile: true,
      },
      {
        id: "zoom-in",
        label: t("preview.zoomIn"),
        icon: ZoomIn,
        onClick: () => o.onZoom("in"),
        hideOnMobile: true,
      },
    );
    if (o.canResize) {
      buttons.push({
        id: "fullsize",
        label: t(o.fullSize ? "preview.resized" : "preview.fullSize"),
        icon: o.fullSize ? Minimize2 : Maximize2,
        pressed: o.fullSize,
        onClick: o.onFullSize,
      });
    }
  }
  if (perm?.download) {
    buttons.push({
      id: "download",
      label: t("preview.download"),
      icon: Download,
      href: rawUrl(resource.path),
      download: true,
    });
  }
  if (perm?.rename) {
    buttons.push({ id: "rename", label: t("buttons.rename"), icon: Pencil, onClick: o.onRename });
  }
  buttons.push({ id: "info", label: t("preview.info"), icon: Info, onClick: () => showPrompt("info") });
  if (perm?.delete) {
    buttons.push({ id: "delete", label: t("preview.delete"), icon: Trash2, onClick: o.onDelete });
  }
  return buttons;
}
