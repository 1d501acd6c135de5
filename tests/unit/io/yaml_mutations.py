"""Ways to make YAML that readers disagree on: corpus files and their mutations, and
random lines of indicators. Shared by the block reader's tests (against libyaml) and
the go-yaml differential (against kubectl's reading)."""

from __future__ import annotations

import random
from pathlib import Path

from kubectl_crd.io.loading import decode_text


def corpus_texts(corpus_dir: Path) -> list[tuple[Path, str]]:
    texts = []
    for part in ("samples", "crds"):
        for path in sorted((corpus_dir / part).rglob("*")):
            if path.suffix in (".yaml", ".yml") and path.is_file():
                text, problem = decode_text(path.read_bytes(), str(path))
                if problem is None:
                    texts.append((path, text))
    return texts


MUTATIONS = [" ", "  ", "-", "- ", ":", ": ", "#", " #", "'", '"', "{", "}", "[", "]", ","]
MUTATIONS += ["\n", "\n  ", "a", "1", "&a ", "*a", "!", "|", ">", "?", "%", "@", "\\", "---\n"]


def mutated(text: str, chooser: random.Random) -> str:
    lines = text.split("\n")
    row = chooser.randrange(len(lines))
    line = lines[row]
    choice = chooser.randrange(4)
    if choice == 0:  # insert something YAML gives a meaning
        at = chooser.randint(0, len(line))
        lines[row] = line[:at] + chooser.choice(MUTATIONS) + line[at:]
    elif choice == 1 and line:  # delete a character
        at = chooser.randrange(len(line))
        lines[row] = line[:at] + line[at + 1 :]
    elif choice == 2:  # indent or outdent
        lines[row] = " " * chooser.choice([1, 2, 4]) + line if chooser.random() < 0.6 else line[2:]
    else:  # repeat a line (duplicate keys, extra entries)
        lines.insert(row, line)
    return "\n".join(lines)


PIECES = ["a", "1", "-", "?", ":", ": ", ",", ", ", " ", "[", "]", "{", "}", "#", " #", "'", '"']
PIECES += ["!", "&", "*", "|", ">", "%", "@", "`", ".", "\\", "''", "x y", "~", "0x1"]
