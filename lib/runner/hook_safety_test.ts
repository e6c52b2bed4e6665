import assert from "node:assert/strict";
import { checkHookLine, describeUnsafeHook, findUnsafeHook } from "./hook_safety.ts";
import { splitWords } from "./words.ts";

const SH = ["sh", "-c"];

Deno.test("checkHookLine() refuses a file name expanded into a shell's code and shows the single-quoted form", () => {
  const table: [string, string, string][] = [
    [`sh -c "cp $FILE /backup"`, "sh", `sh -c 'cp "$FILE" /backup'`],
    [`/bin/bash -lc "cp \${FILE} /b" &`, "bash", `/bin/bash -lc 'cp "\${FILE}" /b'`],
    [`env sh -e -c "mv $FILE $DESTINATION"`, "sh", `env sh -e -c 'mv "$FILE" "$DESTINATION"'`],
    [`sh -c $FILE`, "sh", `sh -c '"$FILE"'`],
    [`timeout 5 dash -c "echo \\"$FILE\\" it's"`, "dash", `timeout 5 dash -c 'echo "$FILE" it'\\''s'`],
    [`find . -exec sh -c "ls $HOME" \\;`, "sh", `find . -exec sh -c 'ls "$HOME"' \\;`],
    [`su -c "rm $FILE" alice`, "su", `su -c 'rm "$FILE"' alice`],
    [`watch "ls $FILE"`, "watch", `watch 'ls "$FILE"'`],
  ];
  for (const [line, program, safe] of table) {
    assert.deepEqual(checkHookLine(line, []), {
      variable: line.includes("${FILE}") ? "${FILE}" : line.includes("$HOME") ? "$HOME" : "$FILE",
      program,
      safe,
    }, line);
  }
});

Deno.test("checkHookLine() refuses a shell's code that leaves the variable unquoted, even in single quotes", () => {
  assert.deepEqual(checkHookLine(`sh -c 'cp $FILE /b'`, []), {
    variable: "$FILE",
    program: "shell",
    safe: `sh -c 'cp "$FILE" /b'`,
  });
});

Deno.test("checkHookLine() refuses interpreters' code and remote commands, with no rewrite", () => {
  for (
    const line of [
      `python3 -c "import os; os.remove('$FILE')"`,
      `python3 -u -c"print('$FILE')"`,
      `perl -ne "print '$FILE'"`,
      `node -e "console.log('$FILE')"`,
      `awk -F, "{print \\"$FILE\\"}" list.csv`,
      `sed -i "s/x/$FILE/" notes.txt`,
      `sed -e "1i $USERNAME" -i notes.txt`,
      `ssh -p 22 backup@host "rm $FILE"`,
      `php -r "unlink('$FILE');"`,
    ]
  ) {
    const unsafe = checkHookLine(line, []);
    assert.ok(unsafe, line);
    assert.equal(unsafe.safe, null, line);
  }
});

Deno.test("checkHookLine() lets file names through as data: plain arguments, positional parameters, single-quoted code", () => {
  for (
    const line of [
      "cp $FILE /backup/",
      "notify-send ${FILE} &",
      `sh -c 'cp "$FILE" /backup'`,
      `sh -c 'printf "%s\\n" "$1"' hook $FILE`,
      `sh script.sh $FILE $DESTINATION`,
      `python3 /usr/local/bin/index.py $FILE`,
      `python3 -c 'import os; print(os.environ["FILE"])'`,
      `awk -f prog.awk $FILE`,
      `sed -i s/a/b/ $FILE`,
      `ssh backup@host`,
      `echo "$TRIGGER done" $PATH`,
      `$FILE --run`,
      '# sh -c "$FILE"',
      "",
    ]
  ) {
    assert.equal(checkHookLine(line, []), null, line);
  }
});

Deno.test("checkHookLine() with a shell set: quoted uses pass, unquoted ones and nested code do not", () => {
  const ok = [
    `cp "$FILE" /b; echo "$DESTINATION" >> "$HOME/log"`,
    `sh -c 'cp "$1" /b' hook "$FILE"`,
    `echo "$(basename "$FILE")" | tee -a "$HOME/names"`,
    `test -f "$FILE" && echo '$FILE is literal here'`,
  ];
  for (const line of ok) assert.equal(checkHookLine(line, SH), null, line);
  const refused: [string, string, string | null][] = [
    [`cp $FILE /b`, "shell", `cp "$FILE" /b`],
    [`cp "$FILE" /b && rm \${FILE}`, "shell", `cp "$FILE" /b && rm "\${FILE}"`],
    [`sh -c "cp $FILE /b"`, "sh", `sh -c 'cp "$FILE" /b'`],
    [`eval "cp $FILE /b"`, "eval", `eval 'cp "$FILE" /b'`],
    [`echo $(basename $FILE) > "$HOME/x"`, "shell", `echo $(basename "$FILE") > "$HOME/x"`],
    [`echo $((FILE + 1))`, "arithmetic", null],
    [`ls > $HOME/list`, "shell", `ls > "$HOME"/list`],
  ];
  for (const [line, program, safe] of refused) {
    const unsafe = checkHookLine(line, SH);
    assert.equal(unsafe?.program, program, line);
    assert.equal(unsafe?.safe, safe, line);
  }
  // A shell that is not one (an interpreter as the "shell") gets the line as its own code: nothing expands.
  assert.equal(checkHookLine(`print("$FILE")`, ["python3", "-c"]), null);
  assert.ok(checkHookLine(`cp $FILE /b`, ["/usr/bin/env", "bash", "-c"]));
});

Deno.test("every rewrite checkHookLine() offers passes it, and keeps the program and the data arguments", () => {
  const lines = [
    `sh -c "cp $FILE /backup"`,
    `env sh -e -c "mv $FILE $DESTINATION"`,
    `timeout 5 dash -c "echo \\"$FILE\\" it's"`,
    `sh -c 'cp $FILE /b'`,
    `sh -c "sh -c \\"cp $FILE /b\\""`,
  ];
  for (const line of lines) {
    const safe = checkHookLine(line, [])?.safe;
    assert.ok(safe, line);
    assert.equal(checkHookLine(safe, []), null, safe);
    assert.equal(splitWords(safe)[0], splitWords(line)[0]);
  }
  for (const line of [`cp $FILE /b`, `sh -c "cp $FILE /b"`, `echo $(basename $FILE)`]) {
    const safe = checkHookLine(line, SH)?.safe;
    assert.ok(safe, line);
    assert.equal(checkHookLine(safe, SH), null, safe);
  }
});

Deno.test("findUnsafeHook() names the first unsafe line by hook, and describeUnsafeHook() says the safe form", () => {
  const found = findUnsafeHook({
    before_save: ["true"],
    after_upload: [`sh -c "cp $FILE /backup"`],
  }, []);
  assert.deepEqual(found, {
    hook: "after_upload",
    line: `sh -c "cp $FILE /backup"`,
    unsafe: { variable: "$FILE", program: "sh", safe: `sh -c 'cp "$FILE" /backup'` },
  });
  assert.equal(
    describeUnsafeHook(found.hook, found.line, found.unsafe),
    `after_upload hook "sh -c \\"cp $FILE /backup\\"" would let sh run the value of $FILE as code; ` +
      `write it as: sh -c 'cp "$FILE" /backup'`,
  );
  assert.equal(findUnsafeHook({ before_save: ["cp $FILE /b"] }, []), null);
});
