import { useEffect, useState } from "preact/hooks";
import { fetchPublicText } from "../../client/api/mod.ts";
import { PREVIEW_CSS } from "../../components/preview/styles.ts";
import type { Resource } from "../../lib/types.ts";
import { ImageViewer } from "../preview/ImageViewer.tsx";
import { MarkdownView } from "../preview/MarkdownView.tsx";
import { MediaPlayer } from "../preview/MediaPlayer.tsx";

/** Text files up to this size are shown inline; bigger ones only offer the download. */
export const SHARE_TEXT_MAX = 512 * 1024;

/** Props of SharePreview. */
export interface SharePreviewProps {
  res: Resource;
  /** The public download URL with `inline=true` (served with a sandboxing CSP). */
  inlineUrl: string;
  /** The public URL of another path of the share (for relative links in Markdown). */
  urlOf: (path: string, options: { inline: boolean }) => string;
  /** Key under which a player remembers its position. */
  memoryKey: string;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

/** Whether a shared file gets an inline preview on the share page. */
export function hasSharePreview(res: Resource): boolean {
  if (["image", "video", "audio", "pdf"].includes(res.type)) return true;
  return (res.type === "text" || res.type === "textImmutable") && res.size <= SHARE_TEXT_MAX;
}

function TextPreview(props: SharePreviewProps) {
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const ctrl = new AbortController();
    fetchPublicText(props.inlineUrl, ctrl.signal)
      .then(setText, () => !ctrl.signal.aborted && setFailed(true));
    return () => ctrl.abort();
  }, [props.inlineUrl]);
  if (failed) return <p class="view-message" role="alert">{props.t("preview.loadFailed")}</p>;
  if (text === null) return <p class="view-message" aria-busy="true">{props.t("preview.loading")}</p>;
  if (/\.(md|markdown)$/i.test(props.res.name)) {
    return (
      <MarkdownView
        text={text}
        path={props.res.path || "/" + props.res.name}
        t={props.t}
        urls={{
          raw: (p) => props.urlOf(p, { inline: true }),
          page: (p) => props.urlOf(p, { inline: false }),
        }}
      />
    );
  }
  return <pre class="share-text" data-testid="share-text" tabIndex={0}>{text}</pre>;
}

/** The read-only preview of a shared file: image, video, audio, PDF or text (Markdown rendered). */
export function SharePreview(props: SharePreviewProps) {
  const { res, t } = props;
  let body;
  if (res.type === "image") {
    body = (
      <div class="share-stage">
        <ImageViewer
          src={props.inlineUrl}
          name={res.name}
          alt={res.name}
          loadingLabel={t("preview.loading")}
        />
      </div>
    );
  } else if (res.type === "video" || res.type === "audio") {
    body = (
      <div class={`share-stage share-${res.type}`}>
        <MediaPlayer kind={res.type} src={props.inlineUrl} path={props.memoryKey} name={res.name} t={t} />
      </div>
    );
  } else if (res.type === "pdf") {
    body = (
      <div class="share-stage">
        <iframe class="preview-pdf" src={props.inlineUrl} title={res.name} data-testid="preview-pdf" />
      </div>
    );
  } else body = <TextPreview {...props} />;
  return (
    <section
      class="card share-preview"
      data-testid="share-preview"
      data-type={res.type}
      aria-label={res.name}
    >
      <style>{PREVIEW_CSS}</style>
      {body}
    </section>
  );
}
