"""The file side, bpy-free: glTF JSON ⇄ ``PhysicsDocument`` (``model``).

``parse`` = ``validate`` + ``read`` (every KHR and OMI revision into one model); ``write`` serialises the model in a
target revision; ``migrate`` = parse + write on JSON; ``files`` loads/saves .gltf/.glb; ``nodes`` / ``node_frames``
are node-hierarchy helpers. Imports only ``io.diagnostics``.
"""
