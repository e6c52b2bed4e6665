import { useEffect, useRef, useState } from "react";
import { X } from "../../components/icons.ts";
import { ChevronDown, ChevronUp } from "../../components/upload/icons.ts";
import { Icon } from "../../components/Icon.tsx";
import { UploadRow } from "../../components/upload/UploadRow.tsx";
import type { PageView } from "../../client/hooks.ts";
import { showPrompt } from "../../client/prompts.ts";
import type { UploadQueue } from "../../client/upload/queue.ts";
import { formatPercent, formatSpeed } from "../../client/upload/ui_format.ts";

/** Rows drawn at most; the rest is summed up in a "+N more" line (a folder may hold thousands of files). */
export const MAX_PANEL_ROWS = 50;
/** The panel starts collapsed to a bar on screens this narrow. */
const MOBILE_QUERY = "(max-width: 736px)";

/** Props of UploadPanel. */
export interface UploadPanelProps {
  page: PageView;
  queue: UploadQueue;
}

/**
 * The upload panel: overall percentage, speed and time left, then the files by ascending
 * progress with their type, percentage and a cancel button. Collapsible; on mobile it starts as a bar.
 */
export function UploadPanel(props: UploadPanelProps) {
  const { t, locale } = props.page;
  const q = props.queue;
  const [collapsed, setCollapsed] = useState(() => matchMedia(MOBILE_QUERY).matches);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // Toasts move up by the panel's height (see components/upload/styles.ts).
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty("--upload-panel-h", `${el.offsetHeight}px`)
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--upload-panel-h");
    };
  }, []);
  const count = q.count.value;
  const percent = q.percent.value;
  const list = q.list.value;
  const speed = formatSpeed(q.speedMbyte.value, locale);
  const cancelOne = (id: number) => void q.abort(id);
  return (
    <section
      ref={ref}
      class={collapsed ? "upload-panel collapsed" : "upload-panel"}
      aria-label={t("upload.panel.label")}
      data-testid="upload-panel"
      data-percent={percent}
    >
      <div class="upload-head">
        <button
          type="button"
          class="upload-toggle"
          aria-expanded={!collapsed}
          title={t(collapsed ? "upload.panel.expand" : "upload.panel.collapse")}
          data-testid="upload-toggle"
          onClick={() => setCollapsed(!collapsed)}
        >
          <span class="upload-summary">
            <span class="upload-title">{t("upload.panel.title", { count })}</span>
            <span class="upload-stats" aria-live="off">
              <bdi class="pct" dir="ltr" data-testid="upload-percent">{formatPercent(percent, locale)}</bdi>
              <bdi data-testid="upload-speed">{t("upload.panel.speed", { speed })}</bdi>
              <span title={t("upload.panel.eta")}>
                <span class="sr-only">{t("upload.panel.eta")}</span>
                <bdi dir="ltr" data-testid="upload-eta">{q.etaText.value}</bdi>
              </span>
            </span>
          </span>
          <Icon node={collapsed ? ChevronUp : ChevronDown} />
        </button>
        <button
          type="button"
          class="action"
          aria-label={t("upload.panel.abortAll")}
          title={t("upload.panel.abortAll")}
          data-testid="upload-abort-all"
          onClick={() => showPrompt("upload-abort")}
        >
          <Icon node={X} />
        </button>
      </div>
      <progress max={100} value={percent} aria-label={t("upload.panel.overall")} />
      {!collapsed && (
        <ul class="upload-list" data-testid="upload-list">
          {list.slice(0, MAX_PANEL_ROWS).map((item) => (
            <UploadRow
              key={item.id}
              item={item}
              percentText={formatPercent(item.progress, locale)}
              typeLabel={t(item.isDir ? "upload.type.folder" : `upload.type.${item.type ?? "blob"}`)}
              cancelLabel={t("upload.panel.cancel", { name: item.name })}
              onCancel={cancelOne}
            />
          ))}
          {list.length > MAX_PANEL_ROWS && (
            <li class="upload-more">{t("upload.panel.more", { count: list.length - MAX_PANEL_ROWS })}</li>
          )}
        </ul>
      )}
    </section>
  );
}
