"""Rewrites the type names in nanobind's generated _C.pyi that a name of the module or of a class shadows.

Why: densecore._C defines dtypes named int, float and bool (torch.int, torch.float, torch.bool), Tensor has
methods of those names (Tensor.int(), ...), and Tensor has a property named dtype. In a stub those names
shadow the types, so `int` in a signature would mean the dtype ("Variable densecore._C.int is not valid as a
type") and `dtype` inside class Tensor would mean the property. nanobind's stubgen prints builtins bare
(stubgen.py simplify_types: "builtins.X" -> "X") and local classes unqualified, so the binding cannot ask for
another spelling; this rewrite is applied to its output at build time (python/src/CMakeLists.txt).

Only annotations on `def` lines are rewritten: docstrings, defaults and the names of functions and
parameters are left alone.

Usage: python unshadow_stub.py IN.pyi OUT.pyi
"""
import re
import sys

SPELLING = {"int": "builtins.int", "float": "builtins.float", "bool": "builtins.bool", "dtype": "_dtype"}
HEADER = "import builtins\n"
# At the end: a stub may name a class before defining it.
FOOTER = "\n# The class dtype, for annotations inside Tensor, whose property dtype shadows it (tools/unshadow_stub.py).\n" \
         "_dtype = dtype\n"

# A type position: the name alone (not part of a longer or dotted name, nor inside a string) ...
NAME = re.compile(r"(?<![\w.'\"])(" + "|".join(SPELLING) + r")\b(?![\w.'\"])")
# ... and not a parameter's name: that starts the parameter ("(", ", ", "*") and is followed by ":".
PARAMETER = re.compile(r"[(,]\s*\**$")
DEF_LINE = re.compile(r"^(\s*def \w+)(\(.*)$")


def respell(m: re.Match[str]) -> str:
    before, after = m.string[:m.start()], m.string[m.end():]
    if PARAMETER.search(before) and after.lstrip().startswith(":"):
        return m.group(0)
    return SPELLING[m.group(0)]


def unshadow_line(line: str) -> str:
    m = DEF_LINE.match(line)
    if not m:
        return line
    return m.group(1) + NAME.sub(respell, m.group(2))


def unshadow(text: str) -> str:
    return HEADER + "\n".join(unshadow_line(line) for line in text.split("\n")) + FOOTER


def main(argv: list[str]) -> None:
    if len(argv) != 3:
        sys.exit(__doc__.rsplit("Usage: ", 1)[1])
    with open(argv[1], encoding="utf-8") as f:
        text = f.read()
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(unshadow(text))


if __name__ == "__main__":
    main(sys.argv)
