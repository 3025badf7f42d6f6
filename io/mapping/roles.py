"""The roles of the objects the importer adds for Blender's sake (bpy-free).

``Object.gltf_physics.joint.role`` of MOTOR constraints of drives, the world anchor and Reproduce Motion helpers:
never bodies, colliders or joints of the file, so export, the filters sync and ``check`` skip them.
"""

HELPER_ROLES = ("ANCHOR", "MOTOR", "REPRODUCTION")
