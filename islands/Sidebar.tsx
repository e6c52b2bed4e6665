import { useEffect, useState } from "react";
import { island } from "../framework/island.tsx";
import { Icon } from "../components/Icon.tsx";
import { FilePlus, Folder, FolderPlus, LogIn, LogOut, Settings, UserPlus } from "../components/icons.ts";
import { getUsage } from "../client/api/mod.ts";
import { parentPath } from "../lib/url_path.ts";
import { usePage } from "../client/hooks.ts";
import { closePrompt, currentPrompt, showPrompt } from "../client/prompts.ts";
import { isPlainClick, navigate, onFilesRoute } from "../client/router.ts";
import { IS_BROWSER } from "../client/page.ts";
import { logout } from "../client/session.ts";
import { currentPath, reloadTick, resource } from "../client/state.ts";
import { errorMessage } from "../client/toasts.ts";
import { formatSize, percentOf } from "../lib/format.ts";
import type { Usage } from "../lib/types.ts";

/** Props of Sidebar. */
export interface SidebarProps {
  /** Show the disk-usage bar (files page). */
  usage?: boolean;
}

function UsageBar(props: { locale: string; t: (k: string, v?: Record<string, string>) => string }) {
  const [usage, setUsage] = useState<Usage | null>(null);
  const path = currentPath.value;
  const dir = resource.value && !resource.value.isDir ? parentPath(path) : path;
  const tick = reloadTick.value;
  useEffect(() => {
    let live = true;
    getUsage(dir).then((u) => live && setUsage(u)).catch((err) => {
      // A disk-usage failure shows the error prompt (also for 403/404, which the listing may not show).
      setUsage(null);
      if (live) showPrompt("error", { message: errorMessage(err) });
    });
    return () => {
      live = false;
    };
  }, [dir, tick]);
  if (!usage) return <div class="usage" aria-hidden="true" />;
  const pct = percentOf(usage.used, usage.total);
  // Isolate the sizes so "5 GiB" keeps its order inside right-to-left sentences.
  const text = props.t("sidebar.usage", {
    used: `\u2068${formatSize(usage.used, props.locale)}\u2069`,
    total: `\u2068${formatSize(usage.total, props.locale)}\u2069`,
  });
  return (
    <div class="usage" data-testid="usage">
      <progress max={100} value={pct} aria-label={text} />
      <span>{text}</span>
    </div>
  );
}

function SidebarImpl(props: SidebarProps) {
  const { config, user, t, locale } = usePage();
  const open = currentPrompt.value?.name === "sidebar";
  const base = config.BaseURL;
  const onNav = (e: MouseEvent) => {
    const a = (e.target as Element).closest("a");
    if (!a || !isPlainClick(e)) return;
    e.preventDefault();
    if (open) closePrompt();
    navigate(a.href);
  };
  // The sidebar stays mounted across client-side navigation: in the browser the route decides the usage bar.
  const usage = IS_BROWSER ? onFilesRoute.value : props.usage;
  const act = (name: string) => () => showPrompt(name, { base: currentPath.value });
  return (
    <>
      {open && <div class="drawer-backdrop" onClick={closePrompt} />}
      <nav class={open ? "sidebar open" : "sidebar"} aria-label={t("sidebar.label")} data-testid="sidebar">
        {user
          ? (
            <ul>
              <li>
                <a href={`${base}/files/`} class="nav-item" onClick={onNav}>
                  <Icon node={Folder} />
                  <span>{t("sidebar.myFiles")}</span>
                </a>
              </li>
              {user.perm.create && (
                <>
                  <li>
                    <button type="button" class="nav-item" onClick={act("newDir")}>
                      <Icon node={FolderPlus} />
                      <span>{t("sidebar.newFolder")}</span>
                    </button>
                  </li>
                  <li>
                    <button type="button" class="nav-item" onClick={act("newFile")}>
                      <Icon node={FilePlus} />
                      <span>{t("sidebar.newFile")}</span>
                    </button>
                  </li>
                </>
              )}
              <li class="sep-before">
                <a href={`${base}/settings`} class="nav-item" onClick={onNav} data-testid="sidebar-settings">
                  <Icon node={Settings} />
                  <span>{t("sidebar.settings")}</span>
                </a>
              </li>
              {!config.NoAuth && config.LoginPage && (
                <li>
                  <button type="button" class="nav-item" onClick={() => void logout()} data-testid="logout">
                    <Icon node={LogOut} />
                    <span>{t("sidebar.logout")}</span>
                  </button>
                </li>
              )}
            </ul>
          )
          : (
            <ul>
              <li>
                <a href={`${base}/login`} class="nav-item">
                  <Icon node={LogIn} />
                  <span>{t("sidebar.login")}</span>
                </a>
              </li>
              {config.Signup && (
                <li>
                  <a href={`${base}/login?signup=1`} class="nav-item">
                    <Icon node={UserPlus} />
                    <span>{t("sidebar.signup")}</span>
                  </a>
                </li>
              )}
            </ul>
          )}
        {usage && user && !config.DisableUsedPercentage && <UsageBar locale={locale} t={t} />}
        <footer class="sidebar-footer">
          <span data-testid="sidebar-product">
            {/* ProjectURL is only in the startup config when set and external links are allowed. */}
            {config.ProjectURL
              ? (
                <a href={config.ProjectURL} target="_blank" rel="noopener noreferrer">
                  {config.Name || "File Browser"}
                </a>
              )
              : (config.Name || "File Browser")}{" "}
            {config.Version && <span class="version">v{config.Version}</span>}
          </span>
          <button type="button" class="link" onClick={() => showPrompt("help")} data-testid="sidebar-help">
            {t("sidebar.help")}
          </button>
        </footer>
      </nav>
    </>
  );
}

/** The sidebar: navigation, create buttons (with the create permission), settings, logout, disk usage, footer. */
export const Sidebar = island("Sidebar", SidebarImpl);
