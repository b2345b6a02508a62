#!/usr/bin/env python3
"""Checks that every link and image in the given Markdown files resolves inside the repository.

usage: check_links.py REPO_ROOT FILE.md...

A link target must be a relative path (no URL scheme, no absolute path) to a
file or directory that exists inside REPO_ROOT; a `#fragment` must name a
heading of the target Markdown file (GitHub's anchor rules). Fenced code blocks
and inline code are skipped. Prints one line per problem and
"check_links: N links, M problems"; exit 1 when there is a problem.
"""
import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML = re.compile(r"""<(?:img|a)\s[^>]*?(?:src|href)\s*=\s*["']([^"']+)["']""", re.I)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def strip_code(text):
    out, fenced = [], False
    for line in text.splitlines():
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else re.sub(r"`[^`]*`", "", line))
    return out


def anchors(path):
    seen, result = {}, set()
    fenced = False
    for line in open(path, encoding="utf-8").read().splitlines():
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if not m:
            continue
        text = m.group(2).replace("`", "").replace("*", "")
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else f"{slug}-{n}")
    for m in re.finditer(r"""<a\s+(?:name|id)\s*=\s*["']([^"']+)["']""", open(path, encoding="utf-8").read()):
        result.add(m.group(1))
    return result


def main():
    root = os.path.realpath(sys.argv[1])
    links = problems = 0
    for md in sys.argv[2:]:
        base = os.path.dirname(os.path.realpath(md))
        for lineno, line in enumerate(strip_code(open(md, encoding="utf-8").read()), 1):
            for target in LINK.findall(line) + HTML.findall(line):
                links += 1
                where = f"{md}:{lineno}: {target}"
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("//"):
                    print(f"{where}: not a file in the repository")
                    problems += 1
                    continue
                path, _, frag = target.partition("#")
                if path.startswith("/"):
                    print(f"{where}: absolute path")
                    problems += 1
                    continue
                full = os.path.realpath(os.path.join(base, path)) if path else os.path.realpath(md)
                if os.path.commonpath([root, full]) != root:
                    print(f"{where}: outside the repository")
                    problems += 1
                elif not os.path.exists(full):
                    print(f"{where}: no such file")
                    problems += 1
                elif frag and full.endswith(".md") and frag not in anchors(full):
                    print(f"{where}: no heading '#{frag}' in {os.path.relpath(full, root)}")
                    problems += 1
    print(f"check_links: {links} links, {problems} problems")
    sys.exit(1 if problems or links == 0 else 0)


main()
