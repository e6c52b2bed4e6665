import { useEffect, useRef } from "react";
import { island } from "../framework/island.tsx";
import { Icon } from "../components/Icon.tsx";
import { EllipsisVertical, Menu, X } from "../components/icons.ts";
import { Logo } from "../components/Logo.tsx";
import type { ActionContext } from "../client/actions.ts";
import { headerActions } from "../client/actions.ts";
import { buttonStates } from "../client/button_state.ts";
import "../client/file_actions.ts";
import "../client/extract.ts";
// The shell panel's toggle (shown only with command execution enabled and the execute permission).
import "../client/shell/action.ts";
import { usePage } from "../client/hooks.ts";
import { useOverflowCount } from "../client/use_overflow.ts";
import { closePrompt, currentPrompt, showPrompt } from "../client/prompts.ts";
import { clearSelection } from "../client/selection.ts";
import { startSession } from "../client/session.ts";
import { IS_BROWSER } from "../client/page.ts";
import { isPlainClick, navigate, onFilesRoute } from "../client/router.ts";

import { currentPath, listing, selectedItems, selection } from "../client/state.ts";
import { ActionButton } from "./header/ActionButton.tsx";

function onBrand(e: MouseEvent): void {
  if (!isPlainClick(e)) return;
  e.preventDefault();
  navigate((e.currentTarget as HTMLAnchorElement).href);
}

/** Props of Header. */
export interface HeaderProps {
  /** Show the file actions (files page). */
  actions?: boolean;
}

function HeaderImpl(props: HeaderProps) {
  const { config, user, t } = usePage();
  useEffect(() => startSession(user), []);
  // The header stays mounted across client-side navigation: in the browser the route decides (files page or not).
  const actions = IS_BROWSER ? onFilesRoute.value : props.actions;
  const menuRef = useRef<HTMLDivElement>(null);
  const top = currentPrompt.value?.name;
  const count = selection.value.size;
  const ctx: ActionContext | null = user
    ? { user, config, selected: selectedItems.value, listing: listing.value, path: currentPath.value }
    : null;
  // A button whose work just ran stays for its spinner and check mark even when the selection it acted on is gone.
  const states = buttonStates.value;
  const visible = actions && ctx ? headerActions.value.filter((a) => a.visible(ctx) || states.has(a.id)) : [];
  const menuActions = visible.filter((a) => !a.pinned);
  // Wider than a phone, the trailing actions that do not fit move into the "more" menu (on phones all of them do).
  const headerRef = useRef<HTMLElement>(null);
  const moved = useOverflowCount(
    headerRef,
    menuActions.length,
    `${count}|${visible.map((a) => a.id).join()}`,
  );
  const movedIds = new Set(menuActions.slice(menuActions.length - moved).map((a) => a.id));
  const name = config.Name || "File Browser";
  useEffect(() => {
    // An opened menu takes the focus (Esc closes it through the prompts layer).
    if (top === "more") menuItems()[0]?.focus();
  }, [top]);
  // The items shown (on wider screens the menu hides those still in the bar).
  const menuItems = () =>
    [...(menuRef.current?.querySelectorAll<HTMLElement>("button") ?? [])].filter((b) =>
      b.getClientRects().length
    );
  const onMenuKey = (e: KeyboardEvent) => {
    const items = menuItems();
    const i = items.indexOf(document.activeElement as HTMLElement);
    const next = e.key === "ArrowDown" ? i + 1 : e.key === "ArrowUp" ? i - 1 : null;
    if (next === null || !items.length) return;
    e.preventDefault();
    items[(next + items.length) % items.length].focus();
  };
  return (
    <header class="topbar" data-testid="header" ref={headerRef}>
      <button
        type="button"
        class="action menu-btn"
        aria-label={t("buttons.toggleSidebar")}
        title={t("buttons.toggleSidebar")}
        aria-expanded={top === "sidebar"}
        onClick={() => top === "sidebar" ? closePrompt() : showPrompt("sidebar")}
      >
        <Icon node={Menu} />
      </button>
      <a class="brand" href={`${config.BaseURL}/files/`} aria-label={name} onClick={onBrand}>
        <Logo staticUrl={config.StaticURL} size={32} />
        <span class="brand-name">{name}</span>
      </a>
      <div class="spacer" />
      {count > 0 && actions && (
        <div class="selection-info" role="status">
          <span>{t("files.selected", { count })}</span>
          <button
            type="button"
            class="action small"
            aria-label={t("buttons.clearSelection")}
            title={t("buttons.clearSelection")}
            onClick={clearSelection}
          >
            <Icon node={X} size={18} />
          </button>
        </div>
      )}
      <div class="actions" role="toolbar" aria-label={t("header.actions")}>
        {ctx &&
          visible.map((a) => (
            <ActionButton
              key={a.id}
              action={a}
              ctx={ctx}
              t={t}
              moved={movedIds.has(a.id)}
            />
          ))}
        {menuActions.length > 0 && (
          <div class="more">
            <button
              type="button"
              class={moved ? "action more-btn has-overflow" : "action more-btn"}
              aria-label={t("buttons.more")}
              title={t("buttons.more")}
              aria-haspopup="menu"
              aria-expanded={top === "more"}
              onClick={() => top === "more" ? closePrompt() : showPrompt("more")}
            >
              <Icon node={EllipsisVertical} />
            </button>
            {top === "more" && ctx && (
              <>
                <div class="menu-backdrop" onClick={closePrompt} />
                <div
                  class="menu"
                  role="menu"
                  aria-label={t("buttons.more")}
                  ref={menuRef}
                  onKeyDown={onMenuKey}
                >
                  {menuActions.map((a) => (
                    <ActionButton key={a.id} action={a} ctx={ctx} t={t} menu moved={movedIds.has(a.id)} />
                  ))}
                </div>
              </>
            )}
          </div>
        )}
      </div>
    </header>
  );
}

/** The top bar: menu button, logo and name, a slot for search, the selection count and the actions. */
export const Header = island("Header", HeaderImpl);
