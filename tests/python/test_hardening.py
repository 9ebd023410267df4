"""The built extension densecore._C carries the hardening cmake/hardening.cmake asks for: full RELRO (a
GNU_RELRO segment and every symbol bound at load), a non-executable stack, stack-protector canaries
(__stack_chk_fail referenced) and glibc's fortified calls (__*_chk referenced). Read straight from the ELF
file, with no external tool, so these tests run wherever the extension does."""
import re
import struct

import pytest

pytestmark = pytest.mark.notorch

PT_DYNAMIC, PT_GNU_STACK, PT_GNU_RELRO = 2, 0x6474E551, 0x6474E552
PF_X = 0x1
SHT_DYNSYM, SHT_DYNAMIC = 11, 6
DT_NULL, DT_BIND_NOW, DT_FLAGS, DT_FLAGS_1 = 0, 24, 30, 0x6FFFFFFB
DF_BIND_NOW, DF_1_NOW = 0x8, 0x1
SHN_UNDEF = 0


class Elf64:
    """The parts of a little-endian ELF64 shared object these tests read: program headers, the dynamic
    section's tags and the dynamic symbol table."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        ident = self.data[:16]
        assert ident[:4] == b"\x7fELF" and ident[4] == 2 and ident[5] == 1, f"{path} is not a little-endian ELF64"
        (_, _, _, _, self.phoff, self.shoff, _, _, self.phentsize, self.phnum, self.shentsize, self.shnum,
         _) = struct.unpack_from("<HHIQQQIHHHHHH", self.data, 16)

    def segments(self):
        """(p_type, p_flags) of every program header."""
        rows = (struct.unpack_from("<II", self.data, self.phoff + i * self.phentsize) for i in range(self.phnum))
        return [(kind, flags) for kind, flags in rows]

    def segment_extents(self):
        """(p_type, p_vaddr, p_memsz) of every program header: where each segment lies once loaded."""
        rows = (struct.unpack_from("<IIQQQQQQ", self.data, self.phoff + i * self.phentsize)
                for i in range(self.phnum))
        return [(kind, vaddr, memsz) for kind, _, _, vaddr, _, _, memsz, _ in rows]

    def sections(self):
        """(sh_type, sh_offset, sh_size, sh_link, sh_entsize) of every section header."""
        out = []
        for i in range(self.shnum):
            _, kind, _, _, offset, size, link, _, _, entsize = struct.unpack_from(
                "<IIQQQQIIQQ", self.data, self.shoff + i * self.shentsize)
            out.append((kind, offset, size, link, entsize))
        return out

    def dynamic_tags(self):
        """{d_tag: d_val} of the dynamic section (up to DT_NULL)."""
        kind, offset, size, _, _ = next(s for s in self.sections() if s[0] == SHT_DYNAMIC)
        tags = {}
        for pos in range(offset, offset + size, 16):
            tag, value = struct.unpack_from("<qQ", self.data, pos)
            if tag == DT_NULL:
                break
            tags[tag] = value
        return tags

    def undefined_dynamic_symbols(self):
        """Names the object imports: dynamic symbols with no section (resolved in another library)."""
        sections = self.sections()
        _, offset, size, link, entsize = next(s for s in sections if s[0] == SHT_DYNSYM)
        strings = sections[link][1]
        names = set()
        for pos in range(offset + entsize, offset + size, entsize):  # entry 0 is the null symbol
            name, _, _, shndx, _, _ = struct.unpack_from("<IBBHQQ", self.data, pos)
            if shndx == SHN_UNDEF:
                end = self.data.index(b"\0", strings + name)
                names.add(self.data[strings + name:end].decode())
        return names


@pytest.fixture(scope="module")
def extension():
    import densecore._C

    return Elf64(densecore._C.__file__)


def _is_sanitizer_build(elf):
    return any(name.startswith("__asan_") for name in elf.undefined_dynamic_symbols())


def test_relro_segment_present(extension):
    assert any(kind == PT_GNU_RELRO for kind, _ in extension.segments())


def test_dynamic_section_inside_relro(extension):
    """The linker puts .dynamic inside GNU_RELRO, so it is read-only once loaded (the loader reads pointers such as
    DT_FINI_ARRAY from it at exit). Editing the file can move it out: patchelf, as `auditwheel repair` runs it,
    moves a grown .dynamic to a new writable segment. _C is linked with its final rpath for that reason
    (python/src/CMakeLists.txt); this holds for the repaired wheel too."""
    extents = extension.segment_extents()
    dynamic = [(start, start + size) for kind, start, size in extents if kind == PT_DYNAMIC]
    relro = [(start, start + size) for kind, start, size in extents if kind == PT_GNU_RELRO]
    assert dynamic and relro, f"PT_DYNAMIC {dynamic}, PT_GNU_RELRO {relro}"
    (d0, d1), (r0, r1) = dynamic[0], relro[0]
    assert r0 <= d0 and d1 <= r1, f".dynamic [{d0:#x}, {d1:#x}) is outside GNU_RELRO [{r0:#x}, {r1:#x})"


def test_all_symbols_bound_at_load(extension):
    """-z now: with RELRO this makes the whole GOT read-only after loading, not just part of it."""
    tags = extension.dynamic_tags()
    assert (DT_BIND_NOW in tags or tags.get(DT_FLAGS, 0) & DF_BIND_NOW
            or tags.get(DT_FLAGS_1, 0) & DF_1_NOW), f"no BIND_NOW in the dynamic section: {tags}"


def test_stack_not_executable(extension):
    stacks = [flags for kind, flags in extension.segments() if kind == PT_GNU_STACK]
    assert stacks, "no GNU_STACK segment: the loader would make the stack executable"
    assert not stacks[0] & PF_X, "GNU_STACK is executable"


def test_stack_protector_canaries(extension):
    assert "__stack_chk_fail" in extension.undefined_dynamic_symbols()


def test_fortified_calls_unless_sanitizer_build(extension):
    """Release builds call glibc's checked variants (__memcpy_chk, __snprintf_chk, ...). The sanitizer build
    is compiled without _FORTIFY_SOURCE on purpose (cmake/hardening.cmake says why), so there are none."""
    checked = sorted(n for n in extension.undefined_dynamic_symbols() if re.fullmatch(r"__\w+_chk", n))
    checked = [n for n in checked if n != "__stack_chk_fail"]  # the canary's handler, not a fortified call
    if _is_sanitizer_build(extension):
        assert checked == [], f"the sanitizer build should not be fortified, yet imports {checked}"
    else:
        assert checked, "no __*_chk import: _FORTIFY_SOURCE did not reach the build"
