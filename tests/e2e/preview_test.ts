/** Browser tests: the file preview — stepping through media with the keys, zoom, full size, TIFF, video, delete. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createHash } from "node:crypto";
import sharp from "sharp";
import { hasChromium, launchBrowser, newSession, openFiles, startServer, writeFile } from "./_server.ts";

const run = await hasChromium();

/** One second of 8 kHz mono 16-bit silence as a WAV file. */
function silentWav(): Uint8Array {
  const rate = 8000;
  const data = rate * 2;
  const buf = new ArrayBuffer(44 + data);
  const v = new DataView(buf);
  const text = (o: number, s: string) => [...s].forEach((c, i) => v.setUint8(o + i, c.charCodeAt(0)));
  text(0, "RIFF");
  v.setUint32(4, 36 + data, true);
  text(8, "WAVEfmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  text(36, "data");
  v.setUint32(40, data, true);
  return new Uint8Array(buf);
}

/** A one-page PDF saying "Hello PDF" (valid cross-reference table). */
function helloPdf(): string {
  const stream = "BT /F1 24 Tf 40 100 Td (Hello PDF) Tj ET";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets = objects.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  return out + `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}

function image(width: number, height: number, color: { r: number; g: number; b: number }) {
  return sharp({ create: { width, height, channels: 3, background: color } });
}

async function openPreview(page: Page, path: string): Promise<void> {
  await page.waitForSelector(`[data-testid="preview"][data-ready][data-path="${path}"]`);
}

async function currentPreview(page: Page): Promise<string | null> {
  return await page.locator('[data-testid="preview"]').getAttribute("data-path");
}

/** Waits until the shown image has loaded and returns its natural width and its source. */
async function loadedImage(page: Page, srcPart = ""): Promise<{ width: number; src: string }> {
  // One poll returns what it checked: the element can be swapped between two separate reads.
  const handle = await page.waitForFunction((part) => {
    const el = document.querySelector<HTMLImageElement>('[data-testid="preview-image"]');
    return !!el && el.complete && el.naturalWidth > 0 && el.src.includes(part) &&
      { width: el.naturalWidth, src: el.src };
  }, srcPart);
  return await handle.jsonValue() as { width: number; src: string };
}

Deno.test({
  name: "preview: media navigation with keys, zoom, full size, TIFF, video position, PDF, delete",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{
        username: "alice",
        perm: { create: true, download: true, delete: true, modify: true, rename: true },
      }],
      config: { resizePreview: true },
    });
    const browser = await launchBrowser();
    try {
      const root = server.t.root;
      await Deno.mkdir(`${root}/media`, { recursive: true });
      await image(1600, 1200, { r: 200, g: 40, b: 40 }).jpeg().toFile(`${root}/media/a.jpg`);
      await image(640, 480, { r: 40, g: 200, b: 40 }).png().toFile(`${root}/media/b.png`);
      await image(300, 200, { r: 40, g: 40, b: 200 }).tiff({ compression: "lzw" }).toFile(
        `${root}/media/c.tif`,
      );
      await Deno.copyFile(new URL("../fixtures/preview_clip.webm", import.meta.url), `${root}/media/d.webm`);
      await writeFile(server, "/media/d.vtt", "WEBVTT\n\n00:00.000 --> 00:05.000\nHello\n");
      await writeFile(server, "/media/e.bin", "\u0000\u0001\u0002 binary");
      await writeFile(server, "/media/notes.txt", "not media");
      await writeFile(server, "/docs/manual.pdf", helloPdf());
      await Deno.mkdir(`${root}/sounds`);
      await Deno.writeFile(`${root}/sounds/tone.wav`, silentWav());
      const { page } = await newSession(browser, server, { as: "alice" });

      await t.step("an image opens resized; Right, Enter and Left step through the media files", async () => {
        await openFiles(page, server, "/media/a.jpg");
        await openPreview(page, "/media/a.jpg");
        const first = await loadedImage(page);
        assert.match(first.src, /\/api\/preview\/big\/media\/a\.jpg\?inline=true&key=\d+/);
        assert.ok(first.width <= 1080, `resized width ${first.width}`);
        await page.keyboard.press("ArrowRight");
        await openPreview(page, "/media/b.png");
        await page.keyboard.press("Enter");
        await openPreview(page, "/media/c.tif");
        await page.keyboard.press("ArrowLeft");
        await openPreview(page, "/media/b.png");
        await page.keyboard.press("ArrowRight");
        await openPreview(page, "/media/c.tif");
      });

      await t.step("a TIFF is decoded in the browser", async () => {
        const tiff = await loadedImage(page);
        assert.match(tiff.src, /^blob:/);
        assert.equal(tiff.width, 300);
        const pixel = await page.locator('[data-testid="preview-image"]').evaluate((el: HTMLImageElement) => {
          const c = document.createElement("canvas");
          c.width = 1;
          c.height = 1;
          const ctx = c.getContext("2d")!;
          ctx.drawImage(el, 0, 0, 1, 1);
          return [...ctx.getImageData(0, 0, 1, 1).data];
        });
        assert.deepEqual(pixel.slice(0, 3), [40, 40, 200]);
      });

      await t.step("the next file skips text files; on a video the arrow keys do not navigate", async () => {
        await page.keyboard.press("ArrowRight");
        await openPreview(page, "/media/d.webm");
        const track = page.locator('[data-testid="preview-video"] track');
        assert.equal(await track.getAttribute("src"), "/api/subtitle/media/d.vtt?inline=true");
        await page.waitForFunction(() => {
          const v = document.querySelector<HTMLVideoElement>('[data-testid="preview-video"]');
          return v?.textTracks[0]?.cues?.length === 1;
        });
        await page.keyboard.press("ArrowRight");
        assert.equal(await currentPreview(page), "/media/d.webm");
      });

      await t.step("a file without preview shows 'No preview' and a download button", async () => {
        await page.mouse.move(600, 400);
        await page.locator('[data-testid="preview-next"]').click();
        await openPreview(page, "/media/e.bin");
        await page.locator('[data-testid="preview-none"]').waitFor();
        assert.equal(
          await page.locator('[data-testid="preview-none-download"]').getAttribute("href"),
          "/api/raw/media/e.bin",
        );
      });

      await t.step("Escape closes the preview to the parent folder", async () => {
        await page.keyboard.press("Escape");
        await page.waitForSelector('[data-testid="listing"]');
        assert.equal(new URL(page.url()).pathname, "/files/media/");
      });

      await t.step("zoom: buttons, wheel and the double-click cycle 1-2-4-1", async () => {
        await openFiles(page, server, "/media/a.jpg");
        await openPreview(page, "/media/a.jpg");
        await loadedImage(page);
        const viewer = page.locator('[data-testid="image-viewer"]');
        await page.locator('[data-testid="preview-zoom-in"]').click();
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="1.25"]');
        await page.waitForFunction(() =>
          document.querySelector('[data-testid="preview-status"]')?.textContent === "125%"
        );
        await page.locator('[data-testid="preview-zoom-out"]').click();
        await page.locator('[data-testid="preview-zoom-out"]').click();
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="0.75"]');
        await viewer.dblclick();
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="1"]');
        await viewer.dblclick();
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="2"]');
        await viewer.dblclick();
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="4"]');
        await viewer.dblclick();
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="1"]');
        await page.mouse.move(640, 400);
        await page.mouse.wheel(0, -100);
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="1.25"]');
      });

      await t.step("drag pans a zoomed image", async () => {
        const img = page.locator('[data-testid="preview-image"]');
        await page.locator('[data-testid="image-viewer"]').dblclick();
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="2"]');
        await page.mouse.move(640, 400);
        await page.mouse.down();
        await page.mouse.move(700, 430, { steps: 4 });
        await page.mouse.up();
        const transform = await img.evaluate((el: HTMLElement) => el.style.transform);
        assert.match(transform, /translate\(60px, 30px\) scale\(2\)/);
      });

      await t.step("the arrows hide after a while and come back when the pointer moves", async () => {
        await page.waitForSelector('[data-testid="preview"][data-nav="hidden"]');
        await page.mouse.move(300, 300);
        await page.mouse.move(320, 310);
        await page.waitForSelector('[data-testid="preview"][data-nav="visible"]');
      });

      await t.step("touch: pinch zooms, a double tap cycles", async () => {
        await page.locator('[data-testid="preview-zoom-out"]').click();
        await page.locator('[data-testid="preview-zoom-out"]').click();
        await page.locator('[data-testid="preview-zoom-out"]').click();
        await page.locator('[data-testid="preview-zoom-out"]').click();
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="1"]');
        await page.locator('[data-testid="image-viewer"]').evaluate((el) => {
          const fire = (type: string, id: number, x: number) =>
            el.dispatchEvent(
              new PointerEvent(type, {
                pointerId: id,
                pointerType: "touch",
                clientX: x,
                clientY: 400,
                bubbles: true,
              }),
            );
          fire("pointerdown", 11, 500);
          fire("pointerdown", 12, 600);
          fire("pointermove", 12, 650);
          fire("pointermove", 12, 700);
          fire("pointerup", 12, 700);
          fire("pointerup", 11, 500);
        });
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="2"]');
        await page.locator('[data-testid="image-viewer"]').evaluate((el) => {
          const fire = (type: string) =>
            el.dispatchEvent(
              new PointerEvent(type, {
                pointerId: 21,
                pointerType: "touch",
                clientX: 640,
                clientY: 400,
                bubbles: true,
              }),
            );
          fire("pointerdown");
          fire("pointerup");
          fire("pointerdown");
          fire("pointerup");
        });
        await page.waitForSelector('[data-testid="image-viewer"][data-scale="4"]');
      });

      await t.step("the info button shows the file's details and its checksum on click", async () => {
        await page.locator('[data-testid="preview-info"]').click();
        const info = page.locator('[data-testid="info"]');
        await info.waitFor();
        await info.locator('[data-testid="reveal-md5"]').click();
        const md5 = createHash("md5").update(await Deno.readFile(`${root}/media/a.jpg`)).digest("hex");
        assert.equal(await info.locator('[data-testid="checksum-md5"]').textContent(), md5);
        await page.keyboard.press("Escape");
        await info.waitFor({ state: "detached" });
        assert.equal(await currentPreview(page), "/media/a.jpg");
      });

      await t.step("full size shows the original image, and the choice sticks while stepping", async () => {
        const toggle = page.locator('[data-testid="preview-fullsize"]');
        assert.equal(await toggle.getAttribute("aria-pressed"), "false");
        await toggle.click();
        await page.waitForSelector('[data-testid="preview-fullsize"][aria-pressed="true"]');
        await page.waitForFunction(() =>
          document.querySelector<HTMLImageElement>('[data-testid="preview-image"]')?.src.includes(
            "/api/raw/media/a.jpg",
          )
        );
        const full = await loadedImage(page, "/api/raw/media/a.jpg");
        assert.equal(full.src, `${server.url}/api/raw/media/a.jpg?inline=true`);
        assert.equal(full.width, 1600);
        await page.keyboard.press("ArrowRight");
        await openPreview(page, "/media/b.png");
        assert.match(
          (await loadedImage(page, "/api/raw/media/b.png")).src,
          /\/api\/raw\/media\/b\.png\?inline=true$/,
        );
        await page.locator('[data-testid="preview-fullsize"]').click();
        assert.match(
          (await loadedImage(page, "/api/preview/big/media/b.png")).src,
          /\/api\/preview\/big\/media\/b\.png/,
        );
      });

      await t.step(
        "a video plays at the chosen rate; its position and rate are restored on return",
        async () => {
          await openFiles(page, server, "/media/d.webm");
          await openPreview(page, "/media/d.webm");
          const video = page.locator('[data-testid="preview-video"]');
          await page.locator('[data-testid="playback-rate"]').selectOption("1.5");
          await page.waitForFunction(() =>
            document.querySelector<HTMLVideoElement>('[data-testid="preview-video"]')?.playbackRate === 1.5
          );
          await video.evaluate(async (v: HTMLVideoElement) => {
            v.muted = true;
            await v.play();
          });
          await page.waitForFunction(() => {
            const v = document.querySelector<HTMLVideoElement>('[data-testid="preview-video"]');
            return !!v && v.currentTime > 0.2;
          });
          await video.evaluate((v: HTMLVideoElement) =>
            new Promise<void>((resolve) => {
              v.pause();
              v.addEventListener("seeked", () => resolve(), { once: true });
              v.currentTime = 6;
            })
          );
          await page.keyboard.press("Escape");
          await page.waitForSelector('[data-testid="listing"]');
          await openFiles(page, server, "/media/d.webm");
          await openPreview(page, "/media/d.webm");
          await page.waitForSelector('[data-testid="preview-video"][data-restored]');
          const at = await page.locator('[data-testid="preview-video"]').evaluate((v: HTMLVideoElement) => ({
            restored: v.dataset.restored,
            time: v.currentTime,
          }));
          assert.equal(at.restored, "6");
          assert.ok(Math.abs(at.time - 6) < 0.5, `currentTime ${at.time}`);
          assert.equal(await page.locator('[data-testid="playback-rate"]').inputValue(), "1.5");
          await page.waitForFunction(() =>
            document.querySelector<HTMLVideoElement>('[data-testid="preview-video"]')?.playbackRate === 1.5
          );
        },
      );

      await t.step("audio plays in a player with the speed menu", async () => {
        await openFiles(page, server, "/sounds/tone.wav");
        await openPreview(page, "/sounds/tone.wav");
        const audio = page.locator('[data-testid="preview-audio"]');
        assert.equal(await audio.getAttribute("src"), "/api/raw/sounds/tone.wav?inline=true");
        await page.waitForFunction(() => {
          const a = document.querySelector<HTMLAudioElement>('[data-testid="preview-audio"]');
          return !!a && a.readyState >= 1 && Math.abs(a.duration - 1) < 0.01;
        });
        await page.locator('[data-testid="playback-rate"]').selectOption("2");
        await page.waitForFunction(() =>
          document.querySelector<HTMLAudioElement>('[data-testid="preview-audio"]')?.playbackRate === 2
        );
      });

      await t.step("a PDF is embedded from the raw endpoint", async () => {
        const pdf = page.waitForResponse((r) => r.url().endsWith("/api/raw/docs/manual.pdf?inline=true"));
        await openFiles(page, server, "/docs/manual.pdf");
        await openPreview(page, "/docs/manual.pdf");
        const res = await pdf;
        assert.equal(res.status(), 200);
        assert.equal(res.headers()["content-type"], "application/pdf");
        assert.equal(
          await page.locator('[data-testid="preview-pdf"]').getAttribute("src"),
          "/api/raw/docs/manual.pdf?inline=true",
        );
      });

      await t.step(
        "deleting in the preview opens the next file, then the previous, then the folder",
        async () => {
          await openFiles(page, server, "/media/b.png");
          await openPreview(page, "/media/b.png");
          await page.locator('[data-testid="preview-delete"]').click();
          await page.locator('[data-testid="delete"] .button.danger').click();
          await openPreview(page, "/media/c.tif");
          assert.equal(await Deno.stat(`${root}/media/b.png`).catch(() => null), null);
          await openFiles(page, server, "/media/e.bin");
          await openPreview(page, "/media/e.bin");
          await page.keyboard.press("Delete");
          await page.locator('[data-testid="delete"] .button.danger').click();
          await openPreview(page, "/media/d.webm");
          await Deno.remove(`${root}/docs/manual.pdf`).catch(() => {});
          await writeFile(server, "/solo/only.bin", "\u0000x");
          await openFiles(page, server, "/solo/only.bin");
          await openPreview(page, "/solo/only.bin");
          await page.locator('[data-testid="preview-delete"]').click();
          await page.locator('[data-testid="delete"] .button.danger').click();
          await page.waitForFunction(() => location.pathname === "/files/solo/");
          await page.waitForSelector('[data-testid="files"][data-path="/solo/"]:not([data-loading])');
          assert.equal(await page.locator('[data-testid="preview"]').count(), 0);
        },
      );
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
