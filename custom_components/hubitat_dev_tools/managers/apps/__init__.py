"""Installed apps and what is built on them, one manager per responsibility:
``installed`` (the tree, pages, enable/disable, delete, HPM), ``rules`` (Rule Machine and
Visual Rules), ``cloner`` (export/clone/import), ``settings`` (the settings editor),
``create`` (new instances), with ``page_model`` (page summaries, setting validation) and
``export_doc`` (export documents)."""

from .cloner import AppCloner
from .create import AppCreator
from .installed import AppManager
from .rules import RuleManager
from .settings import AppSettingsManager

__all__ = ["AppCloner", "AppCreator", "AppManager", "AppSettingsManager", "RuleManager"]
