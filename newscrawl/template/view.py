"""The seed's "toggle view": the key page with its template dimmed and outlined, content normal.

Only the maximal all-template subtrees are marked (the same ones :meth:`Template.apply` removes);
template containers that hold content stay unmarked so the content inside them is not dimmed.
A button hides the marked nodes, showing the content alone.
"""

from __future__ import annotations

from typing import Any

from lxml import etree
from lxml import html as lxml_html

from newscrawl.template.model import Template, whole_subtrees

MARK = "newscrawl-template"
_STYLE = (
    f".{MARK}{{opacity:.35!important;outline:2px dashed #c0392b!important;outline-offset:-2px}}"
    f"body.newscrawl-hide .{MARK}{{display:none!important}}"
    "#newscrawl-toggle{position:fixed;z-index:2147483647;top:8px;right:8px;padding:6px 10px;"
    "background:#c0392b;color:#fff;border:0;font:14px sans-serif;cursor:pointer}"
)
_SCRIPT = (
    "document.getElementById('newscrawl-toggle').onclick=function(){document.body.classList.toggle('newscrawl-hide')};"
)


def marked_elements(root: Any, template: Template) -> list[Any]:
    """The roots of the page's all-template subtrees."""
    page, marked = template.match(root)
    return [page.elements[i] for i in whole_subtrees(page, marked)]


def toggle_view(root: Any, template: Template, base_url: str | None = None) -> str:
    """HTML of ``root`` (modified) with the template marked, a toggle button and a ``<base>``."""
    for el in marked_elements(root, template):
        el.set("class", f"{el.get('class', '')} {MARK}".strip())
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    style = etree.SubElement(head, "style")
    style.text = _STYLE
    if base_url and head.find("base") is None:
        head.insert(0, etree.Element("base", href=base_url))
    body = root.find("body")
    if body is not None:
        button = etree.Element("button", id="newscrawl-toggle", type="button")
        button.text = f"template {template.id}: show/hide"
        body.insert(0, button)
        script = etree.SubElement(body, "script")
        script.text = _SCRIPT
    return lxml_html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>")
