import type { ComponentChildren } from "preact";
import { Icon } from "../Icon.tsx";
import { Lock } from "../../components/icons.ts";

/** One view mode tab (e.g. rendered Markdown vs. source). */
export interface EditorTab {
  id: string;
  label: string;
}

/** Props of EditorToolbar. */
export interface EditorToolbarProps {
  name: string;
  dirty: boolean;
  readOnly: boolean;
  saving: boolean;
  /** Mode tabs; none when the file has a single view. */
  tabs?: EditorTab[];
  activeTab?: string;
  onTab?: (id: string) => void;
  t: (key: string) => string;
  children?: ComponentChildren;
}

/** The bar above the editor: file name, unsaved marker, read-only badge and view tabs (Save is in the top bar). */
export function EditorToolbar(props: EditorToolbarProps) {
  const { t } = props;
  return (
    <div class="editor-toolbar" role="toolbar" aria-label={props.name}>
      <h2 class="editor-name" title={props.name}>
        <bdi>{props.name}</bdi>
        {props.dirty && (
          <span class="editor-dirty" data-testid="editor-dirty" title={t("editor.unsaved")}>
            <span aria-hidden="true">●</span>
            <span class="sr-only">{t("editor.unsaved")}</span>
          </span>
        )}
      </h2>
      {props.readOnly && (
        <span class="editor-badge" data-testid="editor-readonly">
          <Icon node={Lock} size={14} />
          {t("editor.readOnly")}
        </span>
      )}
      {props.tabs && props.tabs.length > 1 && (
        <div class="editor-tabs" role="tablist">
          {props.tabs.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              class="editor-tab"
              aria-selected={tab.id === props.activeTab}
              data-testid={`editor-tab-${tab.id}`}
              onClick={() => props.onTab?.(tab.id)}
            >
              {tab.label}
            </button>
          ))}
        </div>
      )}
      <div class="editor-spacer" />
      {props.saving && (
        <span class="editor-status" role="status" data-testid="editor-saving">{t("editor.saving")}</span>
      )}
      {props.children}
    </div>
  );
}
