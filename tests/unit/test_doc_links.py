"""Every relative link in the README, the CHANGELOG and docs/ resolves: the file exists and, where the link names a
section, the target page has a heading with that GitHub anchor. A renamed page or heading breaks the test, not the
reader."""

from __future__ import annotations

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def github_anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped except hyphens and underscores, spaces to
    hyphens."""
    text = re.sub(r"`|\*\*|\*", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(page: pathlib.Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    anchors = set()
    for line in text.splitlines():
        match = re.match(r"^#{1,6}\s+(.*)$", line)
        if not match:
            continue
        anchor = github_anchor(match.group(1))
        count = seen.get(anchor, 0)
        anchors.add(anchor if count == 0 else f"{anchor}-{count}")
        seen[anchor] = count + 1
    return anchors


def links_of(page: pathlib.Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    return [target for target in LINK.findall(text) if not re.match(r"^[a-z]+:", target)]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves(page: pathlib.Path) -> None:
    broken = []
    for target in links_of(page):
        path_part, _, anchor = target.partition("#")
        destination = (page.parent / path_part).resolve() if path_part else page
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif anchor and destination.suffix == ".md" and anchor not in anchors_of(destination):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_anchor_rule_matches_github() -> None:
    assert github_anchor("Round 7: frozen from the loaded JSON (issue 14)") == (
        "round-7-frozen-from-the-loaded-json-issue-14"
    )
    assert github_anchor("`check` for CI") == "check-for-ci"


def test_readme_is_one_page() -> None:
    """The README is for the people who install the extension: at most 10 KB, details live in docs/."""
    assert len((ROOT / "README.md").read_bytes()) <= 10 * 1024
