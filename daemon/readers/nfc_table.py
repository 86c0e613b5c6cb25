"""The characters near which Unicode NFC may change a text; a text (or a line) without any of them is already NFC.

Generated from this Python's ``unicodedata`` (Unicode 14.0.0) by ``python daemon/readers/nfc_table.py``, which
rewrites this file; a test checks the tables against the running Python and says to regenerate them when they
differ. A character is listed when it has a non-zero combining class (marks NFC may reorder), when NFC changes it
alone (singletons such as U+212B ANGSTROM SIGN, composition exclusions such as U+0958), or when it composes with
the character before it (the second half of a canonical pair, such as U+0301 or a Hangul vowel or final jamo): the
characters the Unicode quick check does not pass.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "NFC_CHANGEABLE_ASTRAL",
    "NFC_CHANGEABLE_BMP",
    "UNICODE_VERSION",
    "changeable_code_points",
    "character_class",
]

UNICODE_VERSION = "14.0.0"

NFC_CHANGEABLE_BMP = (
    "\u0300-\u034e\u0350-\u036f\u0374\u037e\u0387\u0483-\u0487\u0591-\u05bd\u05bf\u05c1-\u05c2"
    "\u05c4-\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7-\u06e8"
    "\u06ea-\u06ed\u0711\u0730-\u074a\u07eb-\u07f3\u07fd\u0816-\u0819\u081b-\u0823\u0825-\u0827"
    "\u0829-\u082d\u0859-\u085b\u0898-\u089f\u08ca-\u08e1\u08e3-\u08ff\u093c\u094d\u0951-\u0954"
    "\u0958-\u095f\u09bc\u09be\u09cd\u09d7\u09dc-\u09dd\u09df\u09fe\u0a33\u0a36\u0a3c\u0a4d"
    "\u0a59-\u0a5b\u0a5e\u0abc\u0acd\u0b3c\u0b3e\u0b4d\u0b56-\u0b57\u0b5c-\u0b5d\u0bbe\u0bcd\u0bd7"
    "\u0c3c\u0c4d\u0c55-\u0c56\u0cbc\u0cc2\u0ccd\u0cd5-\u0cd6\u0d3b-\u0d3c\u0d3e\u0d4d\u0d57\u0dca"
    "\u0dcf\u0ddf\u0e38-\u0e3a\u0e48-\u0e4b\u0eb8-\u0eba\u0ec8-\u0ecb\u0f18-\u0f19\u0f35\u0f37\u0f39"
    "\u0f43\u0f4d\u0f52\u0f57\u0f5c\u0f69\u0f71-\u0f76\u0f78\u0f7a-\u0f7d\u0f80-\u0f84\u0f86-\u0f87"
    "\u0f93\u0f9d\u0fa2\u0fa7\u0fac\u0fb9\u0fc6\u102e\u1037\u1039-\u103a\u108d\u1161-\u1175"
    "\u11a8-\u11c2\u135d-\u135f\u1714-\u1715\u1734\u17d2\u17dd\u18a9\u1939-\u193b\u1a17-\u1a18\u1a60"
    "\u1a75-\u1a7c\u1a7f\u1ab0-\u1abd\u1abf-\u1ace\u1b34-\u1b35\u1b44\u1b6b-\u1b73\u1baa-\u1bab\u1be6"
    "\u1bf2-\u1bf3\u1c37\u1cd0-\u1cd2\u1cd4-\u1ce0\u1ce2-\u1ce8\u1ced\u1cf4\u1cf8-\u1cf9\u1dc0-\u1dff"
    "\u1f71\u1f73\u1f75\u1f77\u1f79\u1f7b\u1f7d\u1fbb\u1fbe\u1fc9\u1fcb\u1fd3\u1fdb\u1fe3\u1feb"
    "\u1fee-\u1fef\u1ff9\u1ffb\u1ffd\u2000-\u2001\u20d0-\u20dc\u20e1\u20e5-\u20f0\u2126\u212a-\u212b"
    "\u2329-\u232a\u2adc\u2cef-\u2cf1\u2d7f\u2de0-\u2dff\u302a-\u302f\u3099-\u309a\ua66f\ua674-\ua67d"
    "\ua69e-\ua69f\ua6f0-\ua6f1\ua806\ua82c\ua8c4\ua8e0-\ua8f1\ua92b-\ua92d\ua953\ua9b3\ua9c0\uaab0"
    "\uaab2-\uaab4\uaab7-\uaab8\uaabe-\uaabf\uaac1\uaaf6\uabed\uf900-\ufa0d\ufa10\ufa12\ufa15-\ufa1e"
    "\ufa20\ufa22\ufa25-\ufa26\ufa2a-\ufa6d\ufa70-\ufad9\ufb1d-\ufb1f\ufb2a-\ufb36\ufb38-\ufb3c\ufb3e"
    "\ufb40-\ufb41\ufb43-\ufb44\ufb46-\ufb4e\ufe20-\ufe2f"
)
"""The listed characters of the Basic Multilingual Plane, as the body of a regular expression character class (a
class of BMP characters only is a bitmap: a search through megabytes takes milliseconds)."""

NFC_CHANGEABLE_ASTRAL = (
    "\U000101fd\U000102e0\U00010376-\U0001037a\U00010a0d\U00010a0f\U00010a38-\U00010a3a\U00010a3f"
    "\U00010ae5-\U00010ae6\U00010d24-\U00010d27\U00010eab-\U00010eac\U00010f46-\U00010f50"
    "\U00010f82-\U00010f85\U00011046\U00011070\U0001107f\U000110b9-\U000110ba\U00011100-\U00011102"
    "\U00011127\U00011133-\U00011134\U00011173\U000111c0\U000111ca\U00011235-\U00011236"
    "\U000112e9-\U000112ea\U0001133b-\U0001133c\U0001133e\U0001134d\U00011357\U00011366-\U0001136c"
    "\U00011370-\U00011374\U00011442\U00011446\U0001145e\U000114b0\U000114ba\U000114bd"
    "\U000114c2-\U000114c3\U000115af\U000115bf-\U000115c0\U0001163f\U000116b6-\U000116b7\U0001172b"
    "\U00011839-\U0001183a\U00011930\U0001193d-\U0001193e\U00011943\U000119e0\U00011a34\U00011a47"
    "\U00011a99\U00011c3f\U00011d42\U00011d44-\U00011d45\U00011d97\U00016af0-\U00016af4"
    "\U00016b30-\U00016b36\U00016ff0-\U00016ff1\U0001bc9e\U0001d15e-\U0001d169\U0001d16d-\U0001d172"
    "\U0001d17b-\U0001d182\U0001d185-\U0001d18b\U0001d1aa-\U0001d1ad\U0001d1bb-\U0001d1c0"
    "\U0001d242-\U0001d244\U0001e000-\U0001e006\U0001e008-\U0001e018\U0001e01b-\U0001e021"
    "\U0001e023-\U0001e024\U0001e026-\U0001e02a\U0001e130-\U0001e136\U0001e2ae\U0001e2ec-\U0001e2ef"
    "\U0001e8d0-\U0001e8d6\U0001e944-\U0001e94a\U0002f800-\U0002fa1d"
)
"""The listed characters above U+FFFF, likewise (a class with these is searched range by range: keep it for the
rare astral characters of a text)."""


def changeable_code_points() -> set[int]:
    """Every code point NFC may change or move, from ``unicodedata`` (about 0.3 s)."""
    points: set[int] = set()
    for code in range(0x80, 0x110000):
        char = chr(code)
        if unicodedata.combining(char) or not unicodedata.is_normalized("NFC", char):
            points.add(code)
        decomposition = unicodedata.decomposition(char)
        if decomposition and not decomposition.startswith("<"):
            pair = [int(part, 16) for part in decomposition.split()]
            if len(pair) == 2 and unicodedata.normalize("NFC", chr(pair[0]) + chr(pair[1])) == char:
                points.add(pair[1])
    # Hangul syllables compose by arithmetic, not from the database: the vowel and final jamo join what precedes.
    points.update(range(0x1161, 0x1176), range(0x11A8, 0x11C3))
    return points


def character_class(points: set[int]) -> str:
    """``points`` as the body of a character class, in ranges (what the two tables hold)."""
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in _ranges(points))


def _ranges(points: set[int]) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for code in sorted(points):
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return ranges


def _escape(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _source() -> str:
    """This module's text with the tables made from the running Python."""
    from pathlib import Path

    source = Path(__file__).read_text(encoding="utf-8")
    points = changeable_code_points()
    for name, part in (
        ("NFC_CHANGEABLE_BMP", {p for p in points if p <= 0xFFFF}),
        ("NFC_CHANGEABLE_ASTRAL", {p for p in points if p > 0xFFFF}),
    ):
        head, rest = source.split(f"{name} = (\n", 1)
        _, tail = rest.split("\n)\n", 1)
        chunks = [""]
        for a, b in _ranges(part):
            item = _escape(a) if a == b else f"{_escape(a)}-{_escape(b)}"
            if len(chunks[-1]) + len(item) > 96:
                chunks.append("")
            chunks[-1] += item
        lines = "\n".join(f'    "{chunk}"' for chunk in chunks)
        source = f"{head}{name} = (\n{lines}\n)\n{tail}"
    return source.replace(f"Unicode {UNICODE_VERSION}", f"Unicode {unicodedata.unidata_version}").replace(
        f'UNICODE_VERSION = "{UNICODE_VERSION}"', f'UNICODE_VERSION = "{unicodedata.unidata_version}"'
    )


if __name__ == "__main__":  # python daemon/readers/nfc_table.py (not -m: the package imports the tables)
    from pathlib import Path

    Path(__file__).write_text(_source(), encoding="utf-8")
