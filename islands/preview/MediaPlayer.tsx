import { useEffect, useRef, useState } from "preact/hooks";
import {
  loadPosition,
  loadRate,
  PLAYBACK_RATES,
  savePosition,
  saveRate,
} from "../../client/preview/video.ts";
import { subtitleLabel, subtitleUrl } from "../../client/preview/urls.ts";

/** Positions are written at most this often while playing. */
const SAVE_EVERY_MS = 1000;

/** Props of MediaPlayer. */
export interface MediaPlayerProps {
  kind: "video" | "audio";
  src: string;
  /** The vpath: the key under which the playback position is remembered. */
  path: string;
  name: string;
  /** Subtitle vpaths (video only). */
  subtitles?: string[];
  t: (key: string) => string;
  onError?: () => void;
}

/** A video or audio player: native controls, a speed menu, the position and speed remembered per file, subtitles. */
export function MediaPlayer(props: MediaPlayerProps) {
  const media = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const [rate, setRate] = useState(() => loadRate(props.path));
  const lastSave = useRef(0);

  useEffect(() => {
    const el = media.current;
    if (!el) return;
    lastSave.current = 0;
    const restore = () => {
      const at = loadPosition(props.path);
      if (at > 0 && (!Number.isFinite(el.duration) || at < el.duration)) el.currentTime = at;
      el.dataset.restored = String(at);
    };
    const save = (force: boolean) => {
      const now = Date.now();
      if (!force && now - lastSave.current < SAVE_EVERY_MS) return;
      lastSave.current = now;
      savePosition(props.path, el.currentTime, { duration: el.duration });
    };
    const onTime = () => save(false);
    const onPause = () => save(true);
    const onEnded = () => savePosition(props.path, 0);
    if (el.readyState >= 1) restore();
    el.addEventListener("loadedmetadata", restore);
    el.addEventListener("timeupdate", onTime);
    el.addEventListener("pause", onPause);
    el.addEventListener("seeked", onPause);
    el.addEventListener("ended", onEnded);
    return () => {
      // Leaving the file (next/previous/close) keeps where it was.
      if (el.currentTime > 0 && !el.ended) {
        savePosition(props.path, el.currentTime, { duration: el.duration });
      }
      el.removeEventListener("loadedmetadata", restore);
      el.removeEventListener("timeupdate", onTime);
      el.removeEventListener("pause", onPause);
      el.removeEventListener("seeked", onPause);
      el.removeEventListener("ended", onEnded);
    };
  }, [props.src]);

  // Another file (next/previous) starts at its own remembered speed.
  useEffect(() => setRate(loadRate(props.path)), [props.path]);

  useEffect(() => {
    if (media.current) media.current.playbackRate = rate;
  }, [rate, props.src]);

  const common = {
    ref: media,
    src: props.src,
    controls: true,
    preload: "metadata" as const,
    onError: () => props.onError?.(),
    "data-testid": `preview-${props.kind}`,
    "aria-label": props.name,
  };
  return (
    <div class={`media-player media-${props.kind}`}>
      {props.kind === "video"
        ? (
          <video {...common} playsInline>
            {(props.subtitles ?? []).map((s, i) => (
              <track
                key={s}
                kind="subtitles"
                src={subtitleUrl(s)}
                label={subtitleLabel(props.name, s)}
                default={i === 0}
              />
            ))}
          </video>
        )
        : <audio {...common} />}
      <label class="media-rate">
        <span>{props.t("preview.speed")}</span>
        <select
          value={String(rate)}
          data-testid="playback-rate"
          onChange={(e) => {
            const next = Number((e.currentTarget as HTMLSelectElement).value);
            saveRate(props.path, next);
            setRate(next);
          }}
        >
          {PLAYBACK_RATES.map((r) => <option key={r} value={String(r)}>{`${r}×`}</option>)}
        </select>
      </label>
    </div>
  );
}
