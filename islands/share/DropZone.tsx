import { useState } from "react";
import type { DropInfo } from "../../client/api/mod.ts";
import { uploadToDrop } from "../../client/drop.ts";
import { formatSize } from "../../lib/format.ts";
import { ShareStyles } from "../../components/share/styles.tsx";

/** Props of DropZone. */
export interface DropZoneProps {
  hash: string;
  password: string;
  info: DropInfo;
  locale: string;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

interface Item {
  id: number;
  name: string;
  percent: number;
  state: "sending" | "done" | "failed";
  error?: string;
}

let nextId = 0;

/** The drop page of an upload-only link: a file input and a drop area, with one line per upload. */
export function DropZone({ hash, password, info, locale, t }: DropZoneProps) {
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const update = (id: number, patch: Partial<Item>) =>
    setItems((list) => list.map((i) => (i.id === id ? { ...i, ...patch } : i)));
  const errorText = (status: number, fallback: string) =>
    status === 413 ? t("share.dropTooLarge") : status === 403 ? t("share.dropRefused") : fallback;

  const send = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const id = nextId++;
      setItems((list) => [...list, { id, name: file.name, percent: 0, state: "sending" }]);
      uploadToDrop(
        hash,
        password,
        file,
        (sent, total) => update(id, { percent: total ? sent / total * 100 : 100 }),
      )
        .then(() => update(id, { state: "done", percent: 100 }))
        .catch((err) =>
          update(id, { state: "failed", error: errorText(err.status ?? 0, String(err.message)) })
        );
    }
  };
  const limits = [
    info.maxFileSize ? t("share.dropLimitSize", { size: formatSize(info.maxFileSize, locale) }) : "",
    info.remaining !== null
      ? t("share.dropLimitFiles", {
        count: Math.max(0, info.remaining - items.filter((i) => i.state !== "failed").length),
      })
      : "",
  ].filter(Boolean);

  return (
    <div class="share-page" data-testid="share-page">
      <ShareStyles />
      <div class="card share-drop" data-testid="share-drop-zone">
        <h2 class="share-drop-title">{t("share.dropTitle", { name: info.name })}</h2>
        <p class="share-hint">{t("share.dropVisitorHint")}</p>
        {limits.map((l) => <p key={l} class="share-hint">{l}</p>)}
        <label
          class={over ? "share-drop-area over" : "share-drop-area"}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            send(e.dataTransfer?.files ?? null);
          }}
        >
          <span>{t("share.dropHere")}</span>
          <input
            type="file"
            multiple
            onChange={(e) => {
              const input = e.target as HTMLInputElement;
              send(input.files);
              input.value = "";
            }}
            data-testid="share-drop-input"
          />
        </label>
        <ul class="share-drop-items" data-testid="share-drop-items">
          {items.map((i) => (
            <li key={i.id} data-state={i.state}>
              <bdi>{i.name}</bdi>{" "}
              <span
                class={i.state === "failed" ? "share-error" : "share-hint"}
                role={i.state === "failed" ? "alert" : undefined}
              >
                {i.state === "done"
                  ? t("share.dropDone")
                  : i.state === "failed"
                  ? i.error
                  : `${Math.floor(i.percent)} %`}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
