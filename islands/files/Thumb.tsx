import { useEffect, useRef, useState } from "react";
import type { ComponentChildren } from "preact";
import { PRELOAD_SCREENS, thumbLoader } from "../../client/thumbs.ts";

/** Props of Thumb. */
export interface ThumbProps {
  url: string;
  /** Shown until the image has loaded, and for good when every attempt failed. */
  fallback: ComponentChildren;
}

type State = "idle" | "loaded" | "failed";

/** A listing thumbnail loaded through the shared lazy loader (client/thumbs.ts). */
export function Thumb(props: ThumbProps) {
  const loader = thumbLoader();
  const ref = useRef<HTMLSpanElement>(null);
  const initial = (): State =>
    loader.isLoaded(props.url) ? "loaded" : loader.hasFailed(props.url) ? "failed" : "idle";
  const [state, setState] = useState<{ url: string; state: State }>(() => ({
    url: props.url,
    state: initial(),
  }));
  const current = state.url === props.url ? state.state : initial();

  useEffect(() => {
    if (current !== "idle" || !ref.current) return;
    const url = props.url;
    let withdraw = () => {};
    const io = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      io.disconnect();
      withdraw = loader.request(url, (s) => setState({ url, state: s }));
    }, { rootMargin: `${Math.round((PRELOAD_SCREENS - 1) * 100)}% 0px` });
    io.observe(ref.current);
    return () => {
      io.disconnect();
      withdraw();
    };
  }, [props.url, current]);

  if (current === "loaded") {
    return <img src={props.url} alt="" decoding="async" draggable={false} data-thumb="loaded" />;
  }
  return <span ref={ref} class="thumb-fallback" data-thumb={current}>{props.fallback}</span>;
}
