import { useState } from "react";
import { enterConfirms, PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { transferItems } from "../../client/file_ops.ts";
import type { TransferItem } from "../../client/file_ops.ts";
import { FolderPicker } from "./FolderPicker.tsx";
import type { PickerMemory } from "./FolderPicker.tsx";

/** Props of the copy and move prompts. */
export interface TransferProps {
  items: TransferItem[];
  /** The folder the items are in. */
  path: string;
  /** The picker's place, kept while another prompt (a new folder) is stacked over this one. */
  picker?: PickerMemory;
}

function TransferPrompt(props: PromptProps<TransferProps> & { action: "copy" | "move" }) {
  const { t } = usePage();
  const here = props.props.path.replace(/\/*$/, "/");
  const memory = props.props.picker ??= { dir: here, chosen: null };
  const [dest, setDest] = useState(memory.chosen ?? memory.dir);
  const [busy, setBusy] = useState(false);
  const disabled = busy || (props.action === "move" && dest === here);
  const confirm = async () => {
    if (disabled) return;
    setBusy(true);
    props.close();
    await transferItems(props.props.items, dest, props.action);
  };
  const label = props.action === "copy" ? t("buttons.copy") : t("buttons.move");
  return (
    <PromptCard
      title={props.action === "copy" ? t("prompts.copy.title") : t("prompts.move.title")}
      testId={props.action}
      onKeyDown={enterConfirms(confirm)}
      actions={
        <>
          <button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>
          <button
            type="button"
            class="button"
            disabled={disabled}
            onClick={confirm}
            autoFocus
            data-testid="transfer-confirm"
          >
            {label}
          </button>
        </>
      }
    >
      <p>{props.action === "copy" ? t("prompts.copy.message") : t("prompts.move.message")}</p>
      <FolderPicker memory={memory} onChange={setDest} />
    </PromptCard>
  );
}

/** The copy prompt with its folder picker. */
export function CopyPrompt(props: PromptProps<TransferProps>) {
  return <TransferPrompt {...props} action="copy" />;
}

/** The move prompt; disabled while the destination is the current folder. */
export function MovePrompt(props: PromptProps<TransferProps>) {
  return <TransferPrompt {...props} action="move" />;
}
