"""The Blender export side: Blender scene → ``PhysicsDocument`` → ``gltf.write`` → io_scene_gltf2's glTF.

``context`` (session, builder, codes) · ``pipeline`` (the order, merging the output) · steps: ``selection`` (which
objects are nodes / meshes), ``bodies``, ``joints``. Steps import ``context``, never ``pipeline``.
"""
