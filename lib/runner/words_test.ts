import assert from "node:assert/strict";
import { expandVars, splitWords, WordsError } from "./words.ts";

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

Deno.test("expandVars() substitutes names and keeps the value one word", () => {
  const vars: Record<string, string> = { FILE: "/s/a b;rm -rf ~", EMPTY: "" };
  const lookup = (n: string) => vars[n];
  const table: [string, string][] = [
    ["$FILE", "/s/a b;rm -rf ~"],
    ["${FILE}.bak", "/s/a b;rm -rf ~.bak"],
    ["x$FILE/y", "x/s/a b;rm -rf ~/y"],
    ["$UNKNOWN", ""],
    ["${EMPTY}z", "z"],
    ["$", "$"],
    ["$$", "$$"],
    ["$1", "$1"],
    ["${FILE", "${FILE"],
    ["${bad-name}", "${bad-name}"],
    ["$(id)", "$(id)"],
    ["cost: 5$", "cost: 5$"],
  ];
  for (const [word, out] of table) assert.equal(expandVars(word, lookup), out, word);
});
