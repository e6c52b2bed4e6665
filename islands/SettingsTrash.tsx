import { useEffect, useState } from "react";
import { island } from "../framework/island.tsx";
import { ConfirmDelete } from "../components/ConfirmDelete.tsx";
import { ErrorView } from "../components/ErrorView.tsx";
import { Icon } from "../components/Icon.tsx";
import { DataTable } from "../components/settings/DataTable.tsx";
import { RotateCcw, Trash2 } from "../components/icons.ts";
import {
  ApiError,
  listTrash,
  purgeTrashItems,
  restoreTrashItem,
  type TransferOptions,
} from "../client/api/mod.ts";
import { parentPath } from "../lib/url_path.ts";
import { folderName } from "../client/file_ops.ts";
import { usePage } from "../client/hooks.ts";
import { type PromptProps, registerPrompt, showPrompt } from "../client/prompts.ts";
import { showError, showSuccess } from "../client/toasts.ts";
import { formatDate, formatRelative, formatSize } from "../lib/format.ts";
import type { TrashItem } from "../lib/types.ts";

/** Confirms removing one item (with `id`) or the whole trash for good. */
function TrashPurgePrompt(props: PromptProps<{ id?: string; name?: string; onDone: () => void }>) {
  const { t } = usePage();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await purgeTrashItems(props.props.id);
      props.close();
      props.props.onDone();
    } catch (err) {
      setBusy(false);
      showError(err);
    }
  };
  return (
    <ConfirmDelete
      title={t(props.props.id ? "trash.deleteTitle" : "trash.emptyTitle")}
      testId="trash-purge"
      message={props.props.id
        ? t("trash.deleteConfirm", { name: props.props.name ?? "" })
        : t("trash.emptyConfirm")}
      cancelLabel={t("buttons.cancel")}
      deleteLabel={t("buttons.delete")}
      busy={busy}
      onConfirm={confirm}
      onCancel={props.close}
    />
  );
}

registerPrompt("trash-purge", TrashPurgePrompt, { labelKey: "trash.emptyTitle" });

function SettingsTrashImpl(props: { items?: TrashItem[] | null }) {
  const { t, locale } = usePage();
  const [items, setItems] = useState<TrashItem[] | null>(props.items ?? null);
  const [error, setError] = useState<number | null>(null);
  const load = async () => {
    try {
      setItems(await listTrash());
    } catch (err) {
      setError(err instanceof ApiError ? err.status : 500);
    }
  };
  // The page brings the items; the API only when it came without (and after each change).
  useEffect(() => {
    if (!props.items) void load();
  }, []);

  const restore = async (item: TrashItem, options: TransferOptions = {}) => {
    try {
      await restoreTrashItem(item.id, options);
      showSuccess(t("trash.restored", { name: item.name }));
      await load();
    } catch (err) {
      // Its place is taken: ask like a copy conflict does (cancel, keep both, replace).
      if (err instanceof ApiError && err.status === 409 && !options.override && !options.rename) {
        showPrompt("replace-rename", {
          names: [item.name],
          folder: folderName(parentPath(item.path)),
          onRename: () => restore(item, { rename: true }),
          onReplace: () => restore(item, { override: true }),
        });
        return;
      }
      showError(err, t("trash.restoreFailed"));
    }
  };

  if (error !== null) return <ErrorView status={error} t={t} />;
  return (
    <section class="card settings-card wide" data-testid="trash">
      <div class="settings-card-head">
        <h2 class="card-title">{t("trash.title")}</h2>
        {!!items?.length && (
          <button
            type="button"
            class="button flat danger"
            data-testid="trash-empty"
            onClick={() => showPrompt("trash-purge", { onDone: load })}
          >
            {t("trash.empty")}
          </button>
        )}
      </div>
      <div class="card-content">
        <DataTable
          rows={items}
          loading={t("files.loading")}
          empty={{ text: t("trash.lonely"), testId: "trash-lonely" }}
          class="trash-table"
          columns={[
            t("trash.origin"),
            t("files.size"),
            t("trash.deleted"),
            t("trash.expires"),
            { hidden: t("share.actions") },
          ]}
          row={(item) => (
            <tr key={item.id} data-id={item.id} data-testid="trash-item">
              <td class="break">{item.path}{item.isDir ? "/" : ""}</td>
              <td>{formatSize(item.size, locale)}</td>
              <td title={formatDate(item.deletedAt, locale)}>
                {formatRelative(item.deletedAt, { locale })}
              </td>
              <td title={formatDate(item.expiresAt, locale)}>
                {formatRelative(item.expiresAt, { locale })}
              </td>
              <td class="trash-buttons">
                <button
                  type="button"
                  class="action"
                  title={t("trash.restore")}
                  aria-label={`${t("trash.restore")}: ${item.name}`}
                  data-testid="trash-restore"
                  onClick={() => restore(item)}
                >
                  <Icon node={RotateCcw} />
                </button>
                <button
                  type="button"
                  class="action"
                  title={t("trash.deleteTitle")}
                  aria-label={`${t("trash.deleteTitle")}: ${item.name}`}
                  data-testid="trash-delete"
                  onClick={() => showPrompt("trash-purge", { id: item.id, name: item.name, onDone: load })}
                >
                  <Icon node={Trash2} />
                </button>
              </td>
            </tr>
          )}
        />
      </div>
    </section>
  );
}

/** Settings › Trash: the user's deleted items, restored or removed for good one by one or all at once. */
export const SettingsTrash = island("SettingsTrash", SettingsTrashImpl);
