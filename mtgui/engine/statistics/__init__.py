"""Per-segment sufficient statistics: extracted once per system and metric (the papers'
"efficient method"), kept in a cache between runs, extracted beside the main process where it
pays, and grouped by documents or labels for breakdowns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

if TYPE_CHECKING:
    from mtgui.engine.statistics.cache import StatisticsCache
    from mtgui.engine.statistics.documents import (
        DocumentGrouping,
        document_scores,
        require_documents,
        score_documents,
    )
    from mtgui.engine.statistics.grouping import (
        DEFAULT_LENGTH_EDGES,
        LENGTH,
        Grouping,
        attribute_keys,
        check_edges,
        group_by_attribute,
        group_by_labels,
        group_by_length,
    )
    from mtgui.engine.statistics.rows import (
        Statistics,
        StatisticsProgress,
        iter_statistics,
        prepare_segment_scores,
    )

_MODULE_OF = {
    "DEFAULT_LENGTH_EDGES": "grouping",
    "DocumentGrouping": "documents",
    "Grouping": "grouping",
    "LENGTH": "grouping",
    "Statistics": "rows",
    "StatisticsCache": "cache",
    "StatisticsProgress": "rows",
    "attribute_keys": "grouping",
    "check_edges": "grouping",
    "document_scores": "documents",
    "group_by_attribute": "grouping",
    "group_by_labels": "grouping",
    "group_by_length": "grouping",
    "iter_statistics": "rows",
    "prepare_segment_scores": "rows",
    "require_documents": "documents",
    "score_documents": "documents",
}
"""Each public name and the module of this stage that defines it."""

__all__ = [
    "DEFAULT_LENGTH_EDGES",
    "LENGTH",
    "DocumentGrouping",
    "Grouping",
    "Statistics",
    "StatisticsCache",
    "StatisticsProgress",
    "attribute_keys",
    "check_edges",
    "document_scores",
    "group_by_attribute",
    "group_by_labels",
    "group_by_length",
    "iter_statistics",
    "prepare_segment_scores",
    "require_documents",
    "score_documents",
]


__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
