import { useEffect, useState } from "preact/hooks";
import { filesUrl } from "../../client/page.ts";
import { parentPath } from "../../lib/url_path.ts";
import { rawUrl } from "../../client/api/mod.ts";
import { renderMarkdown } from "../../client/preview/markdown.ts";

/** Props of MarkdownView. */
export interface MarkdownViewProps {
  /** The Markdown source. */
  text: string;
  /** vpath of the file (relative links and images resolve against its folder). */
  path: string;
  t: (key: string) => string;
  /** Where relative links point (default: the signed-in raw and files URLs; the share page passes its own). */
  urls?: { raw: (path: string) => string; page: (path: string) => string };
}

/** A Markdown file rendered as formatted, sanitised HTML (no script from the file can run). */
export function MarkdownView(props: MarkdownViewProps) {
  const [html, setHtml] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    renderMarkdown(props.text, {
      dir: parentPath(props.path),
      raw: props.urls?.raw ?? ((p) => rawUrl(p, { inline: true })),
      page: props.urls?.page ?? ((p) => filesUrl(p)),
    }).then((h) => live && setHtml(h), () => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [props.text, props.path]);
  if (failed) return <p class="view-message" role="alert">{props.t("preview.loadFailed")}</p>;
  if (html === null) return <p class="view-message" aria-busy="true">{props.t("preview.loading")}</p>;
  // The HTML comes from DOMPurify (client/preview/markdown.ts): no scripts, handlers or javascript: URLs remain.
  return (
    <article class="markdown-body" data-testid="markdown-view" dangerouslySetInnerHTML={{ __html: html }} />
  );
}
