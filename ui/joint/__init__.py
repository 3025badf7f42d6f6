"""The Joint sub-panel and what it edits: the stored glTF joint (``joint_properties``), the panel (``panels_joint``),
*Add glTF Joint* (``joint_presets``) and the sync of an edited joint onto its Blender constraint (``sync_joint``)."""
