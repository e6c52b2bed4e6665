/** Props of Logo. */
export interface LogoProps {
  /** Base URL of static files ("/static" by default). */
  staticUrl: string;
  size?: number;
  /** Accessible name (the instance name); empty for a decorative logo next to the name. */
  alt?: string;
}

/** The instance logo (our own SVG; branding can replace static/logo.svg). */
export function Logo(props: LogoProps) {
  const size = props.size ?? 36;
  return (
    <img class="logo" src={`${props.staticUrl}/logo.svg`} width={size} height={size} alt={props.alt ?? ""} />
  );
}
