import assert from "node:assert/strict";
import { splitWords, WordsError } from "./words.ts";

Deno.test("splitWords() keeps shell metacharacters as literal parts of words", () => {
  const table: [string, string[]][] = [
    ["ls -la", ["ls", "-la"]],
    ["  echo   a\tb  ", ["echo", "a", "b"]],
    ["echo a;rm -rf x", ["echo", "a;rm", "-rf", "x"]],
    ["echo a ; rm x", ["echo", "a", ";", "rm", "x"]],
    ["echo a && id", ["echo", "a", "&&", "id"]],
    ["echo a|id", ["echo", "a|id"]],
    ["echo $(id)", ["echo", "$(id)"]],
    ["echo `id`", ["echo", "`id`"]],
    ["echo $HOME ${PATH}", ["echo", "$HOME", "${PATH}"]],
    ["ls *.txt ?", ["ls", "*.txt", "?"]],
    ["echo a &", ["echo", "a", "&"]],
    ["echo a > /tmp/x", ["echo", "a", ">", "/tmp/x"]],
    ["echo one\nid", ["echo", "one", "id"]],
    ["echo 'a b' \"c d\"", ["echo", "a b", "c d"]],
    ["echo 'it''s'", ["echo", "its"]],
    ["echo '$(id) \\n'", ["echo", "$(id) \\n"]],
    ['echo "a \\" b \\\\ c \\$x"', ["echo", 'a " b \\ c $x']],
    ["echo a\\ b c\\;d", ["echo", "a b", "c;d"]],
    ['echo x"y z"w', ["echo", "xy zw"]],
    ["echo '' \"\"", ["echo", "", ""]],
    ["echo a#b", ["echo", "a#b"]],
    ["echo a # comment; rm x", ["echo", "a"]],
    ["# only a comment", []],
    ["ls # c\nwhoami", ["ls", "whoami"]],
    ["", []],
    ["   \n\t", []],
    ["écho ünïcode 🙂", ["écho", "ünïcode", "🙂"]],
  ];
  for (const [line, words] of table) assert.deepEqual(splitWords(line), words, JSON.stringify(line));
});

Deno.test("splitWords() refuses unbalanced quotes and a trailing backslash", () => {
  for (const line of ["echo 'a", 'echo "a', 'echo "a\\', "echo a\\"]) {
    assert.throws(() => splitWords(line), WordsError, line);
  }
  assert.throws(() => splitWords("echo 'x"), /EOF found when expecting closing quote/);
  assert.throws(() => splitWords("echo x\\"), /EOF found after escape character/);
});

Deno.test("splitWords() with expand: variables become part of one word, outside single quotes only", () => {
  const vars: Record<string, string> = { FILE: "/s/a b;rm -rf ~ $HOME `id`", EMPTY: "", HOME: "/h" };
  const expand = (n: string) => vars[n];
  const table: [string, string[]][] = [
    ["cp $FILE /backup", ["cp", "/s/a b;rm -rf ~ $HOME `id`", "/backup"]],
    ['cp "$FILE" x', ["cp", "/s/a b;rm -rf ~ $HOME `id`", "x"]],
    ["echo ${FILE}.bak", ["echo", "/s/a b;rm -rf ~ $HOME `id`.bak"]],
    ["echo pre$HOME/post", ["echo", "pre/h/post"]],
    ["sh -c 'echo \"$FILE\"'", ["sh", "-c", 'echo "$FILE"']],
    ["echo \\$HOME", ["echo", "$HOME"]],
    ['echo "\\$HOME"', ["echo", "$HOME"]],
    ["$HOME/bin/tool $HOME", ["$HOME/bin/tool", "/h"]],
    ["echo $UNKNOWN x", ["echo", "", "x"]],
    ["echo ${EMPTY}z", ["echo", "z"]],
    ["echo $ $$ $1 ${FILE ${bad-name} $(id) 5$", [
      "echo",
      "$",
      "$$",
      "$1",
      "${FILE",
      "${bad-name}",
      "$(id)",
      "5$",
    ]],
  ];
  for (const [line, words] of table) assert.deepEqual(splitWords(line, { expand }), words, line);
});
