"""The rules between glTF and Blender semantics, bpy-free and unit-tested without Blender.

Names say the direction: ``shapes_to_blender`` (axes, shapes → Blender primitives and meshes), ``joints_to_blender``
(joint → constraint plan), ``filters_to_blender`` (collision filters → collision collections), ``values_to_gltf``
(Blender values → glTF), ``joints_to_gltf`` (constraint → joint description); ``stored`` copies model values onto
``Object.gltf_physics`` and ``passthrough`` keeps what Blender cannot hold as JSON text. Imports ``gltf``, ``sim``
and ``diagnostics`` only.
"""
