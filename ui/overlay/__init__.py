"""The viewport overlay: the draw handler and its sidebar toggles (``overlay``), the lines per selected object
(``overlay_collect``) built from bpy-free shapes (``overlay_geometry``) and marks (``overlay_marks``)."""
