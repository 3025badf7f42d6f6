"""Collision filters in the panels: the filter lists and their operators (``filter_lists``), the rows drawn from the
stored JSON text (``filter_mirror``) and filters ⇄ Blender's collision collections (``sync_filters``)."""
