"""glTF physics I/O: the bpy-free spec model (parse, validate, migrate, serialize) and the Blender mapping.

Everything importable from this package at module level is free of ``bpy``; the Blender mapping and the hook
classes import ``bpy`` and ``io_scene_gltf2`` lazily.
"""
