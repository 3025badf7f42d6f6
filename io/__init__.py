"""glTF physics I/O, one folder per layer (docs/architecture.md).

* ``gltf/`` (bpy-free): glTF JSON ⇄ ``PhysicsDocument`` — ``model``, ``parse`` (= ``validate/`` + ``read/``),
  ``write/`` (``write_target``), ``migrate``, ``files``, ``extensions``.
* ``mapping/`` (bpy-free): the rules between glTF and Blender semantics — ``axes`` (every Y-up ⇄ Z-up swizzle),
  ``*_to_blender``, ``*_to_gltf``, ``stored``, ``passthrough``.
* ``importer/`` and ``exporter/`` (bpy): ``context`` shared by the steps, ``pipeline`` (the order), one module per
  step; a step imports ``context``, never ``pipeline``.
* ``hooks`` (the io_scene_gltf2 hook classes), ``gltf_addon`` (the only module touching io_scene_gltf2 internals),
  ``report`` and ``diagnostics`` (bpy-free, shared), ``cli`` (bpy-free command line), ``convert/`` (batch
  conversion: bpy-free driver, Blender-side worker processes).

Import rule (checked by tests/unit/test_layers.py, its ``ALLOWED`` table is the rule): ``gltf`` imports only
``diagnostics``; ``mapping`` imports ``gltf``, ``sim``, ``diagnostics``; ``importer`` / ``exporter`` import
``mapping``, ``gltf``, ``gltf_addon``, ``report``, ``diagnostics``, ``sim``; only ``hooks`` imports the pipelines;
of ``importer/``, ``ui`` may import only ``importer/reproduce/`` (the panels keep reproduced values in step);
``sim`` imports only ``diagnostics`` and, of ``gltf/``, ``gltf/transforms`` (quaternion ⇄ matrix). No cycles, no
import of our modules by string, no ``try/except ImportError`` around them. Only ``gltf/``, ``mapping/``,
``report``, ``diagnostics`` and ``cli`` are bpy-free (tested with ``bpy`` blocked); ``importer/``,
``exporter/``, ``hooks`` and ``gltf_addon`` need Blender. This ``__init__`` stays a docstring.
"""
