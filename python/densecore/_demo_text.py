"""The demo's training text (python -m densecore.demo), also the corpus of the GPT parity tests: DenseCore's own
README.md and docs/*.md, written by the project, joined in a fixed order (README first, then docs by file name).
An installed package reads the copy CMake ships in densecore/_corpus/ (python/src/CMakeLists.txt); a package
imported from a checkout reads the checkout's files. Standard library only, no densecore import."""
import glob
import os

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def corpus_root():
    """The folder holding README.md and docs/: the installed copy, else the checkout this package lives in."""
    for root in (os.path.join(_PACKAGE, "_corpus"), os.path.dirname(os.path.dirname(_PACKAGE))):
        if os.path.isfile(os.path.join(root, "README.md")):
            return root
    raise FileNotFoundError(f"DenseCore's README.md and docs/ are neither installed beside {_PACKAGE} nor in a "
                            "checkout around it")


def corpus_files():
    root = corpus_root()
    return [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))


def corpus_text():
    """The files' text, each ending in one newline, concatenated."""
    parts = []
    for path in corpus_files():
        with open(path, encoding="utf-8") as f:
            parts.append(f.read().rstrip("\n") + "\n")
    return "".join(parts)
