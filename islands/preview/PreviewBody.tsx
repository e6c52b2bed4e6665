import { Download, File } from "../../components/icons.ts";
import { rawUrl } from "../../client/api/mod.ts";
import { NoPreview } from "../../components/preview/NoPreview.tsx";
import type { Resource } from "../../lib/types.ts";
import { ImageViewer } from "./ImageViewer.tsx";
import type { ImageViewerProps } from "./ImageViewer.tsx";
import { MediaPlayer } from "./MediaPlayer.tsx";

/** Props of PreviewBody. */
export interface PreviewBodyProps {
  resource: Resource;
  /** The image URL (resized or full size). */
  imageSrc: string;
  canDownload: boolean;
  failed: boolean;
  onFailed: () => void;
  onZoom: (scale: number) => void;
  zoomCommand: ImageViewerProps["command"];
  t: (key: string) => string;
}

/** The content of the preview by file type; "No preview" with a download button for everything else. */
export function PreviewBody(props: PreviewBodyProps) {
  const { resource, t } = props;
  const inline = rawUrl(resource.path, { inline: true });
  if (props.failed || !props.canDownload || !["image", "video", "audio", "pdf"].includes(resource.type)) {
    return (
      <NoPreview
        name={resource.name}
        icon={File}
        message={t("preview.noPreview")}
        downloadUrl={props.canDownload ? rawUrl(resource.path) : undefined}
        downloadLabel={t("preview.download")}
        downloadIcon={Download}
      />
    );
  }
  if (resource.type === "image") {
    return (
      <ImageViewer
        key={resource.path}
        src={props.imageSrc}
        name={resource.name}
        alt={resource.name}
        onZoom={props.onZoom}
        command={props.zoomCommand}
        onError={props.onFailed}
        loadingLabel={t("preview.loading")}
      />
    );
  }
  if (resource.type === "pdf") {
    return <iframe class="preview-pdf" src={inline} title={resource.name} data-testid="preview-pdf" />;
  }
  return (
    <MediaPlayer
      key={resource.path}
      kind={resource.type as "video" | "audio"}
      src={inline}
      path={resource.path}
      name={resource.name}
      subtitles={resource.subtitles}
      t={t}
      onError={props.onFailed}
    />
  );
}
