import { useEffect, useState } from "react";
import { ConfirmDelete } from "../../components/ConfirmDelete.tsx";
import { Check } from "../../components/settings/Check.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { getResource } from "../../client/api/mod.ts";
import { deleteItems } from "../../client/file_ops.ts";
import type { TransferItem } from "../../client/file_ops.ts";
import { isolate } from "../../lib/bidi.ts";

/** Something to delete; a folder may say how many entries it holds when the listing knows. */
type DeleteItem = TransferItem & { isDir?: boolean; numDirs?: number; numFiles?: number };

/** How many entries the folder `item` holds: from the item when known, else one GET of the folder. */
async function entriesOf(item: DeleteItem, signal: { cancelled: boolean }): Promise<number | null> {
  if (item.numDirs !== undefined && item.numFiles !== undefined) return item.numDirs + item.numFiles;
  try {
    const res = await getResource(item.path.replace(/\/*$/, "/"));
    if (signal.cancelled) return null;
    return res.numDirs !== undefined && res.numFiles !== undefined
      ? res.numDirs + res.numFiles
      : res.items?.length ?? null;
  } catch {
    // Unknown: the plain question is asked.
    return null;
  }
}

/**
 * The delete confirmation (singular or plural with the count; a non-empty folder says how many items it holds); with
 * a trash, a "delete permanently" choice.
 */
export function DeletePrompt(props: PromptProps<{ items: DeleteItem[]; onDone?: () => void }>) {
  const { t, config } = usePage();
  const [busy, setBusy] = useState(false);
  const [inside, setInside] = useState<number | null>(null);
  const [permanent, setPermanent] = useState(false);
  const hasTrash = (config.TrashDays ?? 0) > 0;
  const items = props.props.items;
  const folder = items.length === 1 && items[0].isDir ? items[0] : null;
  useEffect(() => {
    if (!folder) return;
    const signal = { cancelled: false };
    entriesOf(folder, signal).then((n) => !signal.cancelled && setInside(n));
    return () => {
      signal.cancelled = true;
    };
  }, [folder?.path]);
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    await deleteItems(items, { permanent: hasTrash && permanent });
    props.close();
    props.props.onDone?.();
  };
  const name = items.length ? isolate(items[0].name) : "";
  const message = items.length !== 1
    ? t("prompts.delete.many", { count: items.length })
    : folder && inside
    ? t("prompts.delete.folder", { name, items: t("share.items", { count: inside }) })
    : t("prompts.delete.one", { name });
  return (
    <ConfirmDelete
      title={t("prompts.delete.title")}
      testId="delete"
      message={message}
      cancelLabel={t("buttons.cancel")}
      deleteLabel={t("buttons.delete")}
      busy={busy}
      onConfirm={confirm}
      onCancel={props.close}
    >
      {hasTrash && (
        <>
          <p class="muted">{t(permanent ? "prompts.delete.permanentHint" : "prompts.delete.trashHint")}</p>
          <Check
            name="permanent"
            label={t("prompts.delete.permanent")}
            checked={permanent}
            onChange={setPermanent}
          />
        </>
      )}
    </ConfirmDelete>
  );
}
