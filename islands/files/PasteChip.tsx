import { Icon } from "../../components/Icon.tsx";
import { ClipboardPaste, X } from "../../components/icons.ts";
import type { PageView } from "../../client/hooks.ts";
import { paste } from "../../client/file_ops.ts";
import { clipboard } from "../../client/state.ts";

/**
 * "Paste here (n)" while cut or copied items wait on the clipboard: a click pastes them into the folder shown,
 * the × (or Esc with nothing selected) empties the clipboard.
 */
export function PasteChip(props: { page: PageView }) {
  const { t, user } = props.page;
  const clip = clipboard.value;
  if (!clip || !user?.perm.create || (clip.key === "x" && !user.perm.rename)) return null;
  const n = clip.items.length;
  return (
    <div class="paste-chip" data-testid="paste-chip" data-key={clip.key}>
      <button type="button" class="paste-chip-main" onClick={() => void paste()}>
        <Icon node={ClipboardPaste} size={18} />
        <span>{t("files.clipboard.paste", { n })}</span>
      </button>
      <button
        type="button"
        class="paste-chip-clear"
        aria-label={t("files.clipboard.clear")}
        title={t("files.clipboard.clear")}
        onClick={() => clipboard.value = null}
      >
        <Icon node={X} size={16} />
      </button>
    </div>
  );
}
