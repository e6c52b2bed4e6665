import { useEffect, useRef, useState } from "react";
import { Icon } from "../../components/Icon.tsx";
import { Folder, FolderPlus } from "../../components/icons.ts";
import { getResource } from "../../client/api/mod.ts";
import { joinPath, parentPath } from "../../lib/url_path.ts";
import { usePage } from "../../client/hooks.ts";
import { showPrompt } from "../../client/prompts.ts";
import { errorMessage } from "../../client/toasts.ts";

/** The double click/tap window in milliseconds. */
const DOUBLE_CLICK_MS = 300;

/**
 * Where the picker is: kept by its prompt, so a prompt stacked over it (a new folder) does not lose the place, and
 * a folder created there comes back chosen.
 */
export interface PickerMemory {
  /** The folder shown. */
  dir: string;
  /** The highlighted folder, or null. */
  chosen: string | null;
}

/** Props of FolderPicker. */
export interface FolderPickerProps {
  memory: PickerMemory;
  /** Reports the destination: the highlighted folder, else the folder shown. */
  onChange: (dest: string) => void;
}

/** Browses folders to choose a destination; a click highlights, a double click (or single-click mode) enters. */
export function FolderPicker(props: FolderPickerProps) {
  const { t, user } = usePage();
  const memory = props.memory;
  const [dir, setDirState] = useState(memory.dir.replace(/\/*$/, "/"));
  const [folders, setFolders] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosenState] = useState<string | null>(memory.chosen);
  const setDir = (next: string) => {
    memory.dir = next;
    setDirState(next);
  };
  const setChosen = (next: string | null) => {
    memory.chosen = next;
    setChosenState(next);
  };
  const [tick, setTick] = useState(0);
  const last = useRef({ name: "", at: 0 });

  useEffect(() => {
    let live = true;
    setFolders(null);
    setError(null);
    getResource(dir)
      .then((r) => live && setFolders((r.items ?? []).filter((i) => i.isDir).map((i) => i.name)))
      .catch((err) => live && setError(errorMessage(err)));
    return () => {
      live = false;
    };
  }, [dir, tick]);

  // Report the destination synchronously, so a confirm click right after a choice sees it.
  const choose = (next: string | null, nextDir = dir) => {
    setChosen(next);
    props.onChange(next ?? nextDir);
  };
  const enter = (path: string) => {
    const next = path.replace(/\/*$/, "/");
    setDir(next);
    choose(null, next);
  };
  const click = (name: string) => {
    const path = name === ".." ? parentPath(dir) : joinPath(dir, name) + "/";
    const now = Date.now();
    const double = last.current.name === name && now - last.current.at < DOUBLE_CLICK_MS;
    last.current = { name, at: now };
    if (user?.singleClick || double || name === "..") enter(path);
    else choose(chosen === path ? null : path);
  };
  const items = dir === "/" ? folders : folders && ["..", ...folders];
  return (
    <div class="picker" data-testid="folder-picker">
      <p class="picker-path">
        {t("prompts.picker.current")} <code data-testid="picker-path">{dir}</code>
      </p>
      <ul class="picker-list" role="listbox" aria-label={t("prompts.picker.label")}>
        {error && <li class="muted">{error}</li>}
        {!items && !error && <li class="muted">{t("files.loading")}</li>}
        {items?.length === 0 && <li class="muted">{t("prompts.picker.empty")}</li>}
        {items?.map((name) => {
          const path = name === ".." ? "" : joinPath(dir, name) + "/";
          return (
            <li
              key={name}
              role="option"
              tabIndex={0}
              aria-selected={chosen === path}
              class={chosen === path ? "selected" : undefined}
              data-name={name}
              onClick={() => click(name)}
              onKeyDown={(e) => {
                if (e.key === "Enter") enter(name === ".." ? parentPath(dir) : path);
                else if (e.key === " ") {
                  e.preventDefault();
                  click(name);
                }
              }}
            >
              <Icon node={Folder} size={18} />
              <bdi>{name}</bdi>
            </li>
          );
        })}
      </ul>
      {user?.perm.create && (
        <button
          type="button"
          class="button flat"
          onClick={() =>
            showPrompt("newDir", {
              base: dir,
              redirect: false,
              // The new folder is listed and chosen as the destination at once.
              onCreated: (name: string) => {
                setTick((n) => n + 1);
                choose(joinPath(dir, name.trim()) + "/");
              },
            })}
        >
          <Icon node={FolderPlus} size={18} /> {t("sidebar.newFolder")}
        </button>
      )}
    </div>
  );
}
