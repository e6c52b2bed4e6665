import assert from "node:assert/strict";
import { bindLeaveWarning, createUploadQueue } from "./queue.ts";
import type { QueueClock, UploadHandle, UploadItem, UploadRequest } from "./queue.ts";

/** A manual clock: timers fire only when the test advances time. */
class FakeClock implements QueueClock {
  time = 0;
  #timers = new Map<number, { at: number; fn: () => void; every?: number }>();
  #next = 1;
  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.time + ms, fn });
    return id;
  };
  clearTimeout = (id: unknown) => void this.#timers.delete(id as number);
  setInterval = (fn: () => void, ms: number) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.time + ms, fn, every: ms });
    return id;
  };
  clearInterval = (id: unknown) => void this.#timers.delete(id as number);
  get pending(): number {
    return this.#timers.size;
  }
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, t] = due;
      this.time = t.at;
      if (t.every) t.at += t.every;
      else this.#timers.delete(id);
      t.fn();
    }
    this.time = end;
  }
}

/** An uploader whose uploads the test drives by hand. */
class FakeUploader {
  started: { req: UploadRequest; resolve(): void; reject(e: Error): void; aborted: boolean }[] = [];
  upload = (req: UploadRequest): UploadHandle => {
    let resolve!: () => void, reject!: (e: Error) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const entry = { req, resolve, reject, aborted: false };
    this.started.push(entry);
    return {
      done,
      abort: () => {
        entry.aborted = true;
        return Promise.resolve();
      },
    };
  };
  byPath(path: string) {
    const e = this.started.find((s) => s.req.path === path);
    assert.ok(e, `upload of ${path} not started`);
    return e;
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function file(name: string, size: number, type = "application/octet-stream") {
  return { name, size, type };
}

function setup(options: { failDir?: boolean } = {}) {
  const clock = new FakeClock();
  const uploader = new FakeUploader();
  const dirs: string[] = [];
  const errors: [string, UploadItem][] = [];
  let reloads = 0;
  const queue = createUploadQueue({
    uploader: uploader.upload,
    createDir: (p) => {
      dirs.push(p);
      return options.failDir ? Promise.reject(new Error("403 Forbidden")) : Promise.resolve();
    },
    onFinished: () => reloads++,
    onError: (e, item) => errors.push([e.message, item]),
    clock,
  });
  return { clock, uploader, dirs, errors, queue, reloads: () => reloads };
}

Deno.test("the queue runs at most 5 uploads at once and starts the next when one ends", async () => {
  const { queue, uploader, reloads } = setup();
  queue.enqueue(Array.from({ length: 7 }, (_, i) => ({
    kind: "file" as const,
    path: `/f${i}.bin`,
    file: file(`f${i}.bin`, 10),
    overwrite: false,
  })));
  assert.equal(uploader.started.length, 5);
  assert.equal(queue.count.value, 7);
  assert.equal(queue.isUploading.value, true);
  uploader.byPath("/f0.bin").resolve();
  await flush();
  assert.equal(uploader.started.length, 6);
  assert.equal(queue.uploads.value[1].progress, 100, "a finished job shows its full size");
  for (const s of uploader.started.slice(1)) s.resolve();
  await flush();
  assert.equal(uploader.started.length, 7);
  uploader.byPath("/f6.bin").resolve();
  await flush();
  assert.equal(queue.count.value, 0, "the state resets when the queue empties");
  assert.equal(queue.isUploading.value, false);
  assert.equal(reloads(), 1, "a listing reload is requested once");
});

Deno.test("folder jobs create the folder; folders show 100 and have no type", () => {
  const { queue, dirs, uploader } = setup();
  queue.enqueue([
    { kind: "dir", path: "/photos/" },
    { kind: "file", path: "/photos/a.jpg", file: file("a.jpg", 4, "image/jpeg"), overwrite: true },
  ]);
  assert.deepEqual(dirs, ["/photos/"]);
  const [dir, pic] = [queue.uploads.value[1], queue.uploads.value[2]];
  assert.deepEqual([dir.name, dir.isDir, dir.type, dir.progress], ["photos", true, undefined, 100]);
  assert.deepEqual([pic.name, pic.type, pic.progress], ["a.jpg", "image", 0]);
  assert.equal(uploader.byPath("/photos/a.jpg").req.overwrite, true);
});

Deno.test("progress is throttled to one update per 100 ms and the last value always arrives", () => {
  const { queue, uploader, clock } = setup();
  queue.enqueue([{ kind: "file", path: "/big.bin", file: file("big.bin", 1000), overwrite: false }]);
  const up = uploader.byPath("/big.bin");
  up.req.onProgress(100);
  assert.equal(queue.uploads.value[1].sent, 100, "the first update is immediate");
  clock.advance(10);
  up.req.onProgress(200);
  up.req.onProgress(300);
  assert.equal(queue.uploads.value[1].sent, 100, "updates within 100 ms wait");
  clock.advance(89);
  assert.equal(queue.uploads.value[1].sent, 100);
  clock.advance(1);
  assert.equal(queue.uploads.value[1].sent, 300, "the trailing update carries the latest value");
  assert.equal(queue.uploads.value[1].progress, 30);
  assert.equal(queue.percent.value, 30);
});

Deno.test("overall percentage, list order by ascending progress, speed and ETA", () => {
  const { queue, uploader, clock } = setup();
  const MIB = 1024 * 1024;
  queue.enqueue([
    { kind: "file", path: "/a", file: file("a", 10 * MIB), overwrite: false },
    { kind: "file", path: "/b", file: file("b", 10 * MIB), overwrite: false },
  ]);
  assert.equal(queue.etaText.value, "--:--:--", "unknown before the first sample");
  uploader.byPath("/a").req.onProgress(6 * MIB);
  uploader.byPath("/b").req.onProgress(2 * MIB);
  assert.deepEqual(queue.list.value.map((i) => i.name), ["b", "a"]);
  assert.equal(queue.percent.value, 40);
  clock.advance(1000);
  // 8 MiB in the first second: average 8, speed 0.2 × 8 + 0.8 × 0.
  assert.equal(queue.speedMbyte.value.toFixed(2), "1.60");
  assert.equal(queue.eta.value, 12 / 1.6);
  assert.equal(queue.etaText.value, "00:00:08");
  uploader.byPath("/b").req.onProgress(4 * MIB);
  clock.advance(1000);
  // Samples 8 and 2 MiB/s: average 5, speed 0.2 × 5 + 0.8 × 1.6.
  assert.equal(queue.speedMbyte.value.toFixed(2), "2.28");
});

Deno.test("a failed job leaves the state, is reported, and the others carry on", async () => {
  const { queue, uploader, errors, reloads } = setup();
  queue.enqueue([
    { kind: "file", path: "/ok.txt", file: file("ok.txt", 2, "text/plain"), overwrite: false },
    { kind: "file", path: "/bad.txt", file: file("bad.txt", 2), overwrite: false },
  ]);
  uploader.byPath("/bad.txt").reject(new Error("Upload failed: 413 Request Entity Too Large"));
  await flush();
  assert.deepEqual(errors.map(([m, i]) => [m, i.name]), [[
    "Upload failed: 413 Request Entity Too Large",
    "bad.txt",
  ]]);
  assert.deepEqual(queue.list.value.map((i) => i.name), ["ok.txt"]);
  uploader.byPath("/ok.txt").resolve();
  await flush();
  assert.equal(reloads(), 1);
});

Deno.test("a failing folder job is reported like a file", async () => {
  const { queue, errors } = setup({ failDir: true });
  queue.enqueue([{ kind: "dir", path: "/nope/" }]);
  await flush();
  assert.deepEqual(errors.map(([m]) => m), ["403 Forbidden"]);
  assert.equal(queue.count.value, 0);
});

Deno.test("abort(id) terminates one upload and lets the next waiting job start", async () => {
  const { queue, uploader, reloads } = setup();
  const ids = queue.enqueue(Array.from({ length: 6 }, (_, i) => ({
    kind: "file" as const,
    path: `/f${i}`,
    file: file(`f${i}`, 1),
    overwrite: false,
  })));
  await queue.abort(ids[0]);
  assert.equal(uploader.byPath("/f0").aborted, true);
  assert.equal(uploader.started.length, 6, "the sixth job started in the freed slot");
  await queue.abort(ids[5]);
  assert.equal(queue.count.value, 4);
  uploader.byPath("/f0").resolve();
  await flush();
  assert.equal(queue.count.value, 4, "a late success of an aborted upload changes nothing");
  for (const id of [1, 2, 3, 4]) uploader.byPath(`/f${id}`).resolve();
  await flush();
  assert.equal(reloads(), 1);
});

Deno.test("abortAll() stops running and waiting jobs, clears the state and requests a reload", async () => {
  const { queue, uploader, reloads, clock } = setup();
  queue.enqueue(Array.from({ length: 8 }, (_, i) => ({
    kind: "file" as const,
    path: `/f${i}`,
    file: file(`f${i}`, 1),
    overwrite: false,
  })));
  const idle = queue.idle();
  await queue.abortAll();
  await idle;
  assert.equal(uploader.started.length, 5, "waiting jobs never start");
  assert.ok(uploader.started.every((s) => s.aborted));
  assert.equal(queue.count.value, 0);
  assert.equal(queue.isUploading.value, false);
  assert.equal(queue.speedMbyte.value, 0);
  assert.equal(reloads(), 1);
  assert.equal(clock.pending, 0, "no timer left running");
});

Deno.test("an uploader that throws at once fails only its job", async () => {
  const errors: string[] = [];
  const queue = createUploadQueue({
    uploader: () => {
      throw new Error("Tus.io settings are not defined");
    },
    createDir: () => Promise.resolve(),
    onError: (e) => errors.push(e.message),
    clock: new FakeClock(),
  });
  queue.enqueue([{ kind: "file", path: "/x", file: file("x", 1), overwrite: false }]);
  await queue.idle();
  assert.deepEqual(errors, ["Tus.io settings are not defined"]);
});

Deno.test("bindLeaveWarning() blocks leaving only while uploads run", () => {
  const { queue } = setup();
  const target = new EventTarget();
  const unbind = bindLeaveWarning(queue, target);
  const leave = () => {
    const ev = new Event("beforeunload", { cancelable: true });
    target.dispatchEvent(ev);
    return ev.defaultPrevented;
  };
  assert.equal(leave(), false);
  queue.enqueue([{ kind: "file", path: "/x", file: file("x", 1), overwrite: false }]);
  assert.equal(leave(), true);
  unbind();
  assert.equal(leave(), false);
});
