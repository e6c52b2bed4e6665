import { usePage } from "../../client/hooks.ts";

/** Which settings screen is open. */
export type SettingsSection = "profile" | "shares" | "trash" | "global" | "users" | "audit";

/**
 * The settings side navigation: profile always, shares with the share permission, the trash when the server keeps
 * one and the user may delete, the rest for admins.
 */
export function SettingsNav(props: { current: SettingsSection }) {
  const { config, user, t } = usePage();
  const base = config.BaseURL;
  const links: [SettingsSection, string][] = [["profile", "settings.profile.title"]];
  if (user?.perm.share) links.push(["shares", "settings.nav.shares"]);
  if (user?.perm.delete && (config.TrashDays ?? 0) > 0) links.push(["trash", "trash.title"]);
  if (user?.perm.admin) {
    links.push(["global", "settings.global.title"], ["users", "settings.users.title"], [
      "audit",
      "audit.title",
    ]);
  }
  return (
    <nav class="settings-nav" aria-label={t("settings.label")} data-testid="settings-nav">
      {links.map(([id, key]) => (
        <a
          key={id}
          href={`${base}/settings/${id}`}
          class={id === props.current ? "active" : undefined}
          aria-current={id === props.current ? "page" : undefined}
          data-section={id}
        >
          {t(key)}
        </a>
      ))}
    </nav>
  );
}
