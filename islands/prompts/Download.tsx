import { PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";

/** Archive formats offered for downloads: label and the `algo` query value. */
export const ARCHIVE_FORMATS: [string, string][] = [
  ["zip", "zip"],
  ["tar", "tar"],
  ["tar.gz", "targz"],
  ["tar.bz2", "tarbz2"],
  ["tar.xz", "tarxz"],
  ["tar.lz4", "tarlz4"],
  ["tar.sz", "tarsz"],
];

/** The download format chooser: one button per archive format. */
export function DownloadPrompt(props: PromptProps<{ onFormat: (algo: string) => void }>) {
  const { t } = usePage();
  return (
    <PromptCard
      title={t("prompts.download.title")}
      testId="download"
      actions={<button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>}
    >
      <p>{t("prompts.download.message")}</p>
      <div class="formats">
        {ARCHIVE_FORMATS.map(([label, algo], i) => (
          <button
            key={algo}
            type="button"
            class="button outline"
            autoFocus={i === 0}
            data-format={algo}
            onClick={() => {
              props.close();
              props.props.onFormat(algo);
            }}
          >
            {label}
          </button>
        ))}
      </div>
    </PromptCard>
  );
}
