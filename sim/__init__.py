"""Pure-numpy reference evaluator of the glTF physics semantics (no bpy)."""
