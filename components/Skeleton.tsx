/** Props of Skeleton. */
export interface SkeletonProps {
  /** Accessible text ("Loading..."). */
  label: string;
  rows?: number;
}

/** Placeholder rows shown while a listing loads, under a visible "Loading…" line. */
export function Skeleton(props: SkeletonProps) {
  const rows = Array.from({ length: props.rows ?? 8 }, (_, i) => i);
  return (
    <div class="skeleton" role="status" aria-live="polite" data-testid="skeleton">
      <span class="skeleton-label">{props.label}</span>
      {rows.map((i) => (
        <div key={i} class="skeleton-row" aria-hidden="true">
          <span class="sk-icon" />
          <span class="sk-name" style={{ width: `${30 + ((i * 37) % 40)}%` }} />
          <span class="sk-meta" />
        </div>
      ))}
    </div>
  );
}
