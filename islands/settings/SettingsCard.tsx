import type { ComponentChildren } from "preact";

/** Props of SettingsCard. */
export interface SettingsCardProps {
  title: string;
  id: string;
  children: ComponentChildren;
  onSave: () => void;
  /** The save button's text. */
  label: string;
}

/** One card of the global settings: a form of its own with a save button (each saves the whole settings). */
export function SettingsCard(props: SettingsCardProps) {
  return (
    <form
      class="card settings-card"
      data-testid={`card-${props.id}`}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSave();
      }}
    >
      <h2 class="card-title">{props.title}</h2>
      <div class="card-content settings-fields">{props.children}</div>
      <div class="card-actions">
        <button type="submit" class="button">{props.label}</button>
      </div>
    </form>
  );
}
