#!/usr/bin/env python3
"""Checks the links of the project's Markdown documentation, without the network.

Every relative link in README.md, CONTRIBUTING.md, CHANGELOG.md, bench/README.md and docs/*.md must point to
an existing file or folder, and every #anchor (in the same file or in another .md file) must match a heading,
using GitHub's rule for heading ids: lower-case, punctuation removed, spaces turned into '-', a '-N' suffix
for repeated headings. External links (http, https, mailto) are listed as skipped, not fetched.

Usage: scripts/check-links.py [--verbose] [file.md ...]   (default: the files above, from the repository root)
Exit status: 0 when every link resolves, 1 otherwise.
"""

import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FILES = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "bench/README.md"]

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
# [text](target "title") and ![alt](target); the target may be wrapped in <>.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)")
AUTOLINK = re.compile(r"<(https?://[^>]+)>")
HTML_ANCHOR = re.compile(r"<a\s+(?:[^>]*\s)?(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def slug(text):
    """GitHub's id for a heading: markup dropped, lower-case, punctuation removed, spaces to '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: keep their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.lower()
    kept = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in " -_" or cat[0] in "LN" or cat == "Mn":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def scan(path):
    """The anchors a Markdown file defines and its links as (line number, target), code excluded."""
    anchors, links, seen = set(), [], {}
    fence = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = FENCE.match(line)
            if fence:
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
            for a in HTML_ANCHOR.findall(line):
                anchors.add(a)
            h = HEADING.match(line)
            if h:
                base = slug(h.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                anchors.add(base if n == 0 else f"{base}-{n}")
            text = INLINE_CODE.sub("", line)
            for target in INLINE_LINK.findall(text):
                links.append((number, target.strip("<>")))
            r = REFERENCE_DEF.match(text)
            if r:
                links.append((number, r.group(1).strip("<>")))
            for target in AUTOLINK.findall(text):
                links.append((number, target))
    return anchors, links


def main(argv):
    verbose = "--verbose" in argv
    names = [a for a in argv if a != "--verbose"]
    if not names:
        docs = os.path.join(ROOT, "docs")
        names = DEFAULT_FILES + sorted(
            os.path.join("docs", n) for n in os.listdir(docs) if n.endswith(".md"))
    files = [os.path.normpath(os.path.join(ROOT, n)) for n in names]
    anchor_cache = {}

    def anchors_of(path):
        if path not in anchor_cache:
            anchor_cache[path] = scan(path)[0]
        return anchor_cache[path]

    broken, checked, skipped = [], 0, []
    for path in files:
        rel = os.path.relpath(path, ROOT)
        if not os.path.isfile(path):
            broken.append(f"{rel}: file to check is missing")
            continue
        for number, target in scan(path)[1]:
            where = f"{rel}:{number}"
            if EXTERNAL.match(target):
                skipped.append(f"{where}: {target}")
                continue
            checked += 1
            file_part, _, anchor = target.partition("#")
            dest = path if not file_part else os.path.normpath(
                os.path.join(os.path.dirname(path), file_part.split("?")[0]))
            if not os.path.exists(dest):
                broken.append(f"{where}: {target} -> no such file {os.path.relpath(dest, ROOT)}")
                continue
            if anchor:
                if not dest.endswith(".md") or os.path.isdir(dest):
                    broken.append(f"{where}: {target} -> an anchor into a file that is not Markdown")
                elif anchor not in anchors_of(dest):
                    broken.append(f"{where}: {target} -> no heading #{anchor} in {os.path.relpath(dest, ROOT)}")

    if verbose:
        for s in skipped:
            print(f"skipped (external): {s}")
    for b in broken:
        print(f"broken link: {b}", file=sys.stderr)
    print(f"check-links: {len(files)} files, {checked} relative links checked, "
          f"{len(skipped)} external links skipped, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
