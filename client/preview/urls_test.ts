import { strictEqual } from "node:assert/strict";
import { bigPreviewUrl, subtitleLabel, subtitleUrl } from "./urls.ts";

Deno.test("bigPreviewUrl() encodes the path and keys the URL by modification time", () => {
  strictEqual(
    bigPreviewUrl({ path: "/a b/c#.jpg", modified: "2024-01-02T03:04:05Z" }),
    "/api/preview/big/a%20b/c%23.jpg?inline=true&key=1704164645000",
  );
});

Deno.test("subtitleUrl() asks for the inline WebVTT conversion", () => {
  strictEqual(subtitleUrl("/v/subs/en.srt"), "/api/subtitle/v/subs/en.srt?inline=true");
});

Deno.test("subtitleLabel() strips the video's base name and the extension", () => {
  strictEqual(subtitleLabel("movie.mp4", "/v/movie.en.vtt"), "en");
  strictEqual(subtitleLabel("movie.mp4", "/v/subs/English.srt"), "English.srt");
  strictEqual(subtitleLabel("movie.mp4", "/v/movie.srt"), "movie.srt");
});
